import { Button, Group, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { backupFits } from '../../../shared/database-size';
import { ApiError } from '../../lib/api';
import { notify } from '../../lib/toast/notify';
import { backupDatabase, useBackups } from './api';
import { BackupList } from './BackupList';
import { BackupProgress } from './BackupProgress';
import { DatabaseSize } from './DatabaseSize';

/** How often the tab asks again while a backup runs: the every-minute trigger takes a step a minute. */
const RUNNING_REFRESH_MS = 15_000;

export function DatabaseTab() {
  const [pending, setPending] = useState(false);
  const backups = useBackups();
  const running = backups.data?.running ?? null;
  // The run this tab started and answered 202 for, and its file once the list names it: its end is announced.
  const watched = useRef<{ runId: string; key: string | null } | null>(null);

  const runningId = running?.runId ?? null;
  const { mutate } = backups;
  useEffect(() => {
    if (!runningId) return undefined;
    const timer = setInterval(() => void mutate(), RUNNING_REFRESH_MS);
    return () => clearInterval(timer);
  }, [runningId, mutate]);

  useEffect(() => {
    const run = watched.current;
    if (!run || !backups.data) return;
    if (backups.data.running?.runId === run.runId) {
      run.key = backups.data.running.key;
      return;
    }
    watched.current = null;
    if (run.key && backups.data.items.some(({ key }) => key === run.key)) notify.success('Database backup complete');
    // docs/architecture.md#toasts: a failed backup is only logged.
    else if (run.key) console.error('Database backup failed', run.runId);
  }, [backups.data]);

  const backup = async () => {
    setPending(true);
    try {
      const answer = await backupDatabase();
      if ('runId' in answer) {
        watched.current = { runId: answer.runId, key: null };
        notify.info('Backup started', 'It goes on by itself, a step a minute, and appears in the list when it is done.');
      } else notify.success('Database backup complete');
    } catch (error) {
      // A backup already running, or no room for one: the provider says which (docs/api.md#settings-backups).
      if (error instanceof ApiError && error.status === 409) notify.error('Backup not started', error.message);
      // docs/architecture.md#toasts: any other failed backup is only logged, with no message to the user.
      else console.error('Database backup failed', error);
    } finally {
      setPending(false);
      await backups.mutate();
    }
  };

  const fits = backups.data ? backupFits(backups.data.database) : true;
  return (
    <Stack>
      <Text>Create a timestamped backup to the DB Server.</Text>
      <Group>
        <Button onClick={backup} loading={pending} disabled={pending || running !== null || !fits}>
          Backup Database
        </Button>
      </Group>
      {running ? <BackupProgress run={running} /> : null}
      <DatabaseSize size={backups.data?.database} />
      <BackupList data={backups.data} error={backups.error} onRetry={() => void backups.mutate()} />
    </Stack>
  );
}
