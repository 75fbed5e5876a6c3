import { Badge, Button, Collapse, SimpleGrid, Stack, type SimpleGridProps } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';

interface FoldingFiltersProps {
  /** The id of the folded region, for the button's `aria-controls`; unique on the page. */
  id: string;
  /** How many folded filters are set, shown on the button so a folded filter is never forgotten. */
  active: number;
  /** The filter fields: in a grid on a wide screen, behind the "Filters" button on a phone. */
  children: ReactNode;
  /** The grid's columns on a wide screen, or `gridClassName` for a grid of uneven columns. */
  cols?: SimpleGridProps['cols'];
  gridClassName?: string;
  /** Shown first and never folded (a search box). */
  lead?: ReactNode;
  /** Shown under the grid and never folded (quick yes/no filters). */
  after?: ReactNode;
}

/**
 * A list page's filters. Stacked fields would fill a phone's first screen, so there they fold
 * behind a "Filters" button that counts the ones set; wider screens show them all in a grid.
 */
export function FoldingFilters({ id, active, children, cols, gridClassName, lead, after }: FoldingFiltersProps) {
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  const [open, { toggle }] = useDisclosure(false);

  if (!phone) {
    return (
      <Stack gap="sm" mb="md">
        {gridClassName ? (
          <div className={gridClassName}>
            {lead}
            {children}
          </div>
        ) : (
          <SimpleGrid cols={cols}>
            {lead}
            {children}
          </SimpleGrid>
        )}
        {after}
      </Stack>
    );
  }
  return (
    <Stack gap="xs" mb="md">
      {lead}
      {after}
      <Button
        variant="default"
        onClick={toggle}
        aria-expanded={open}
        aria-controls={id}
        rightSection={active > 0 ? <Badge size="sm" circle>{active}</Badge> : undefined}
      >
        {open ? 'Hide filters' : 'Filters'}
      </Button>
      <Collapse expanded={open} id={id}>
        <SimpleGrid cols={2}>{children}</SimpleGrid>
      </Collapse>
    </Stack>
  );
}
