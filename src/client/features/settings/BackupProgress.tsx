import { Progress, Stack, Text } from '@mantine/core';
import type { BackupRun } from '../../../shared/types';
import { formatDateTime } from '../../lib/format';

/** The backup under way: how far it has got. The every-minute trigger carries it on, a step at a time. */
export function BackupProgress({ run }: { run: BackupRun }) {
  const share = run.rowsTotal ? Math.min(1, run.rowsDone / run.rowsTotal) : 0;
  return (
    <Stack gap={6} data-testid="backup-progress">
      <Text size="sm">
        A backup started {formatDateTime(run.startedAt)} is running
        {run.rowsTotal === null ? '' : `: ${run.rowsDone.toLocaleString()} of ${run.rowsTotal.toLocaleString()} rows`}. It goes on by itself, a step a minute, and
        appears in the list when it is done.
      </Text>
      <Progress value={share * 100} aria-label="Backup progress" />
    </Stack>
  );
}
