import { Button, Group, Pagination, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import type { AuditEntity } from '../../../shared/types';
import { formatDateTime } from '../format';
import type { RecordOption } from '../record-options';
import { useAudit } from './api';
import { ChangeList } from './ChangeList';
import { ACTION_LABELS, actorOf, type ValueFormats } from './describe';

const PAGE_SIZE = 10;

interface HistorySectionProps {
  entity: AuditEntity;
  entityId: number;
  /** The record's `updatedAt`: when it moves, the record has changed and the history reloads. */
  changedAt: string;
  /** Readable values for fields only the page can name, such as the company behind `companyId`. */
  formats?: ValueFormats;
  /** The people the page already holds, to name mentions without asking for them. */
  people?: readonly RecordOption[];
}

/** A record's History: who changed it, when, and each field as before → after, newest first. */
export function HistorySection({ entity, entityId, changedAt, formats, people }: HistorySectionProps) {
  // The page shown belongs to one record; another record starts on its first page.
  const record = `${entity}:${entityId}`;
  const [paging, setPaging] = useState({ record, page: 1 });
  const page = paging.record === record ? paging.page : 1;
  const history = useAudit({ entity, entityId, page, pageSize: PAGE_SIZE });
  const { mutate } = history;
  const seen = useRef(changedAt);
  useEffect(() => {
    if (seen.current === changedAt) return;
    seen.current = changedAt;
    void mutate();
  }, [changedAt, mutate]);
  const data = history.data;
  const pages = data ? Math.ceil(data.total / data.pageSize) : 1;

  return (
    <Stack gap="sm" component="section" aria-labelledby={`history-${entity}-${entityId}`}>
      <Title order={3} size="h4" id={`history-${entity}-${entityId}`}>
        History
      </Title>
      {!data && !history.error ? (
        <Stack gap="xs" aria-busy="true" aria-label="Loading history">
          <Skeleton height={56} />
          <Skeleton height={56} />
        </Stack>
      ) : null}
      {history.error && !data ? (
        <Group gap="sm">
          <Text c="red" size="sm">
            Could not load the history: {history.error.message}
          </Text>
          <Button size="xs" variant="light" onClick={() => history.mutate()}>
            Try again
          </Button>
        </Group>
      ) : null}
      {data?.total === 0 ? <Text size="sm">No changes recorded yet.</Text> : null}
      {data && data.items.length > 0 ? (
        <Stack component="ol" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Changes, newest first">
          {data.items.map((entry) => (
            <Paper component="li" key={entry.id} withBorder p="sm">
              <Group justify="space-between" gap="xs" wrap="wrap">
                <Text size="sm">
                  <Text span fw={600} size="sm">
                    {actorOf(entry)}
                  </Text>{' '}
                  · {ACTION_LABELS[entry.action] ?? entry.action}
                </Text>
                <Text size="xs" component="time" dateTime={entry.at}>
                  {formatDateTime(entry.at)}
                </Text>
              </Group>
              <ChangeList entry={entry} formats={formats} people={people} />
            </Paper>
          ))}
        </Stack>
      ) : null}
      {pages > 1 ? <Pagination total={pages} value={page} onChange={(next) => setPaging({ record, page: next })} size="sm" siblings={0} boundaries={1} /> : null}
    </Stack>
  );
}
