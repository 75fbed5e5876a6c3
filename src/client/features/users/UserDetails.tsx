import { Button, Group, Stack } from '@mantine/core';
import type { User } from '../../../shared/types';
import { formatDateTime, fullName } from '../../lib/format';
import { ActiveBadge } from '../../lib/ui/ActiveBadge';
import { Facts } from '../../lib/ui/Facts';

export function UserDetails({ user, onEdit, onToggleActive, busy, isSelf }: { user: User; onEdit: () => void; onToggleActive: () => void; busy: boolean; isSelf: boolean }) {
  return (
    <Stack>
      <Facts
        items={[
          ['Name', fullName(user)],
          ['Email', user.email],
          ['Status', <ActiveBadge active={user.isActive} />],
          ['Created', formatDateTime(user.createdAt)],
          ['Updated', formatDateTime(user.updatedAt)],
        ]}
      />
      <Group>
        <Button onClick={onEdit}>Edit</Button>
        <Button
          variant="light"
          color={user.isActive ? 'red' : 'green'}
          onClick={onToggleActive}
          loading={busy}
          disabled={busy || (isSelf && user.isActive)}
          title={isSelf && user.isActive ? 'You cannot deactivate your own account' : undefined}
        >
          {user.isActive ? 'Deactivate' : 'Activate'}
        </Button>
      </Group>
    </Stack>
  );
}
