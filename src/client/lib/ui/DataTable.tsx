import { EmptyState, Group, Pagination, Skeleton, Table, Text, UnstyledButton } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Page } from '../../../shared/types';
import classes from './data-table.module.css';
import { LoadError } from './LoadError';

export interface Column<T> {
  key: string;
  label: string;
  render: (row: T) => ReactNode;
  /** The `sort` value this column sorts by, when it can. */
  sort?: string;
  /** Hidden below this width so phones see the essentials. */
  visibleFrom?: 'xs' | 'sm' | 'md' | 'lg';
  /** Numbers and money line up on the right so their digits compare at a glance. */
  align?: 'right';
}

interface DataTableProps<T extends { id: number }> {
  columns: Column<T>[];
  page: Page<T> | undefined;
  error: Error | undefined;
  onRetry: () => void;
  onPageChange: (page: number) => void;
  onOpen: (row: T) => void;
  selectedId?: number;
  sort?: string;
  onSortChange?: (sort: string) => void;
  empty: { title: string; description?: string; action?: ReactNode };
  label: string;
}

const SKELETON_ROWS = 8;

function SortHeader({ label, value, sort, onSortChange }: { label: string; value: string; sort?: string; onSortChange: (sort: string) => void }) {
  const state = sort === value ? 'ascending' : sort === `-${value}` ? 'descending' : 'none';
  const next = state === 'ascending' ? `-${value}` : value;
  return (
    <UnstyledButton onClick={() => onSortChange(next)} className={classes.sort} aria-label={`Sort by ${label}`}>
      {label} {state === 'ascending' ? '▲' : state === 'descending' ? '▼' : ''}
    </UnstyledButton>
  );
}

/** A list as a table: skeleton rows while loading, an empty state, an error with retry, paging. */
export function DataTable<T extends { id: number }>(props: DataTableProps<T>) {
  const { columns, page, error, onRetry, onPageChange, onOpen, selectedId, sort, onSortChange, empty, label } = props;

  if (error && !page) return <LoadError title="Could not load this list" error={error} onRetry={onRetry} />;
  if (page && page.total === 0) {
    return (
      <EmptyState title={empty.title} description={empty.description} py="xl">
        {empty.action}
      </EmptyState>
    );
  }

  const pages = page ? Math.max(1, Math.ceil(page.total / page.pageSize)) : 1;
  return (
    <>
      <Table.ScrollContainer minWidth={0}>
        <Table highlightOnHover verticalSpacing="xs" aria-label={label} aria-busy={!page}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th
                  key={column.key}
                  visibleFrom={column.visibleFrom}
                  ta={column.align}
                  aria-sort={column.sort && sort?.replace(/^-/, '') === column.sort ? (sort.startsWith('-') ? 'descending' : 'ascending') : undefined}
                >
                  {column.sort && onSortChange ? (
                    <SortHeader label={column.label} value={column.sort} sort={sort} onSortChange={onSortChange} />
                  ) : (
                    column.label
                  )}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {page
              ? page.items.map((row) => (
                  <Table.Tr
                    key={row.id}
                    className={classes.row}
                    data-selected={row.id === selectedId || undefined}
                    onClick={() => onOpen(row)}
                    onKeyDown={(event) => {
                      if (event.key === 'Enter' || event.key === ' ') {
                        event.preventDefault();
                        onOpen(row);
                      }
                    }}
                    tabIndex={0}
                    aria-selected={row.id === selectedId}
                  >
                    {columns.map((column) => (
                      <Table.Td key={column.key} visibleFrom={column.visibleFrom} ta={column.align}>
                        {column.render(row)}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))
              : Array.from({ length: SKELETON_ROWS }, (_, i) => (
                  <Table.Tr key={i} data-testid="skeleton-row">
                    {columns.map((column) => (
                      <Table.Td key={column.key} visibleFrom={column.visibleFrom} ta={column.align}>
                        <Skeleton height={14} radius="sm" />
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group justify="space-between" mt="md" wrap="wrap">
        <Text size="sm" c="dimmed">
          {page ? `${page.total.toLocaleString()} ${page.total === 1 ? 'record' : 'records'}` : 'Loading…'}
        </Text>
        {pages > 1 ? <Pagination total={pages} value={page?.page ?? 1} onChange={onPageChange} size="sm" siblings={1} boundaries={1} /> : null}
      </Group>
    </>
  );
}
