import { Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { BackupResult } from '../../../shared/types';
import { notify } from '../../lib/toast/notify';
import { backupDatabase } from './api';

const formatBytes = (bytes: number) => (bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} kB`);

export function DatabaseTab() {
  const [pending, setPending] = useState(false);
  const [last, setLast] = useState<BackupResult | null>(null);

  const backup = async () => {
    setPending(true);
    try {
      setLast(await backupDatabase());
      notify.success('Database backup complete');
    } catch (error) {
      // SPEC.md §8: a failed backup is only logged, with no message to the user.
      console.error('Database backup failed', error);
    } finally {
      setPending(false);
    }
  };

  return (
    <Stack>
      <Text>Create a timestamped backup to the DB Server.</Text>
      <Group>
        <Button onClick={backup} loading={pending} disabled={pending}>
          Backup Database
        </Button>
      </Group>
      {last ? (
        <Text size="sm" c="dimmed" data-testid="last-backup">
          Saved {last.key} ({formatBytes(last.bytes)}) at {new Date(last.createdAt).toLocaleString()}
        </Text>
      ) : null}
    </Stack>
  );
}
