import { Button, Group, Stack } from '@mantine/core';
import type { User } from '../../../shared/types';
import { formatDateTime, fullName } from '../../lib/format';
import { ActiveBadge } from '../../lib/ui/ActiveBadge';
import { Facts } from '../../lib/ui/Facts';
import { RoleBadge } from './RoleBadge';

interface Props {
  user: User;
  /** Whether the signed-in user may edit and deactivate users; without it the panel only shows. */
  canManage: boolean;
  onEdit: () => void;
  onToggleActive: () => void;
  busy: boolean;
  isSelf: boolean;
}

export function UserDetails({ user, canManage, onEdit, onToggleActive, busy, isSelf }: Props) {
  return (
    <Stack>
      <Facts
        items={[
          ['Name', fullName(user)],
          ['Email', user.email],
          ['Role', <RoleBadge role={user.role} />],
          ['Status', <ActiveBadge active={user.isActive} />],
          ['Created', formatDateTime(user.createdAt)],
          ['Updated', formatDateTime(user.updatedAt)],
        ]}
      />
      {canManage ? (
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
      ) : null}
    </Stack>
  );
}
