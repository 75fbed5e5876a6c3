import { Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { notify } from '../../lib/toast/notify';
import { backupDatabase, useBackups } from './api';
import { BackupList } from './BackupList';

export function DatabaseTab() {
  const [pending, setPending] = useState(false);
  const backups = useBackups();

  const backup = async () => {
    setPending(true);
    try {
      await backupDatabase();
      notify.success('Database backup complete');
      await backups.mutate();
    } catch (error) {
      // docs/architecture.md#toasts: a failed backup is only logged, with no message to the user.
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
      <BackupList data={backups.data} error={backups.error} onRetry={() => void backups.mutate()} />
    </Stack>
  );
}
