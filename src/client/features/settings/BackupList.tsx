import { Alert, Button, Skeleton, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { BackupList as BackupListData, BackupMadeBy } from '../../../shared/types';
import { apiDownload } from '../../lib/download';
import { apiPath } from '../../lib/endpoints';
import { formatDateTime } from '../../lib/format';
import { useCan } from '../../lib/permissions';
import { LoadError } from '../../lib/ui/LoadError';
import { useDownload } from '../../lib/use-download';
import classes from './settings.module.css';

/** The Database tab warns when the daily backup (03:00 UTC) has not run for longer than this. */
const SCHEDULE_STALE_HOURS = 26;

const formatBytes = (bytes: number) => {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
};

const maker = (madeBy: BackupMadeBy | null) => (madeBy === null ? '—' : madeBy.type === 'schedule' ? 'Schedule' : madeBy.name);

function ScheduleStatus({ lastScheduledAt }: { lastScheduledAt: string | null }) {
  // The time the tab opened: the warning is about a whole day, so it need not tick.
  const [now] = useState(Date.now);
  if (lastScheduledAt === null) {
    return (
      <Alert color="yellow" title="No scheduled backup yet" data-testid="schedule-status">
        The daily backup runs at 03:00 UTC; none has run so far.
      </Alert>
    );
  }
  const hours = (now - Date.parse(lastScheduledAt)) / 3_600_000;
  if (hours > SCHEDULE_STALE_HOURS) {
    return (
      <Alert color="yellow" title="The scheduled backup is overdue" data-testid="schedule-status">
        The last scheduled backup ran {formatDateTime(lastScheduledAt)}, more than {SCHEDULE_STALE_HOURS} hours ago. The daily backup runs at 03:00 UTC.
      </Alert>
    );
  }
  return (
    <Text size="sm" c="dimmed" data-testid="schedule-status">
      Last scheduled backup: {formatDateTime(lastScheduledAt)}
    </Text>
  );
}

interface BackupListProps {
  data: BackupListData | undefined;
  error: Error | undefined;
  onRetry: () => void;
}

/** Admins only: a backup holds every password hash, and the provider answers 403 to others. */
function DownloadButton({ backupKey, time }: { backupKey: string; time: string }) {
  const { busy, start } = useDownload('Backup not downloaded');
  const download = () => start(() => apiDownload(apiPath('GET /settings/backups/download', { query: { key: backupKey } }), backupKey.replace(/^backups\//, '')));
  return (
    <Button size="xs" variant="default" onClick={download} loading={busy} aria-label={`Download the backup of ${time}`}>
      Download
    </Button>
  );
}

/** The backups in R2, newest first, and whether the daily backup is running. */
export function BackupList({ data, error, onRetry }: BackupListProps) {
  const canDownload = useCan('downloadBackups');
  if (error && !data) return <LoadError title="Could not load the backups" error={error} onRetry={onRetry} />;
  return (
    <>
      <Title order={3} size="h5" id="backups-heading">
        Backups
      </Title>
      {data ? <ScheduleStatus lastScheduledAt={data.lastScheduledAt} /> : <Skeleton height={20} aria-busy />}
      {data && data.items.length === 0 ? (
        <Text size="sm" c="dimmed">
          No backups yet.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={0}>
          <Table verticalSpacing="xs" aria-labelledby="backups-heading" aria-busy={!data}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Time</Table.Th>
                <Table.Th ta="right">Size</Table.Th>
                <Table.Th ta="right">Rows</Table.Th>
                <Table.Th>Made by</Table.Th>
                {canDownload ? <Table.Th className={classes.fileColumn}>File</Table.Th> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data
                ? data.items.map((item) => (
                    <Table.Tr key={item.key}>
                      <Table.Td miw={120}>{formatDateTime(item.createdAt)}</Table.Td>
                      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                        {formatBytes(item.bytes)}
                      </Table.Td>
                      <Table.Td ta="right">{item.rows === null ? '—' : item.rows.toLocaleString()}</Table.Td>
                      <Table.Td>{maker(item.madeBy)}</Table.Td>
                      {canDownload ? (
                        <Table.Td className={classes.fileColumn}>
                          <DownloadButton backupKey={item.key} time={formatDateTime(item.createdAt)} />
                        </Table.Td>
                      ) : null}
                    </Table.Tr>
                  ))
                : Array.from({ length: 3 }, (_, i) => (
                    <Table.Tr key={i}>
                      <Table.Td colSpan={canDownload ? 5 : 4}>
                        <Skeleton height={16} aria-busy />
                      </Table.Td>
                    </Table.Tr>
                  ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}
