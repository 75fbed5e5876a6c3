import { Button, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { User } from '../../../shared/types';
import { formatDateTime, fullName } from '../../lib/format';
import { ActiveBadge } from '../../lib/ui/ActiveBadge';
import { ConfirmDialog } from '../../lib/ui/ConfirmDialog';
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
  // Deactivating ends the person's sessions at once, so it is asked first; activating is not.
  const [asking, ask] = useDisclosure(false);
  const name = fullName(user);
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
            onClick={user.isActive ? ask.open : onToggleActive}
            loading={busy}
            disabled={busy || (isSelf && user.isActive)}
            title={isSelf && user.isActive ? 'You cannot deactivate your own account' : undefined}
          >
            {user.isActive ? 'Deactivate' : 'Activate'}
          </Button>
        </Group>
      ) : null}
      <ConfirmDialog
        opened={asking && canManage}
        onClose={ask.close}
        title="Deactivate user?"
        confirmLabel="Deactivate"
        onConfirm={() => {
          ask.close();
          onToggleActive();
        }}
      >
        <Text>
          Deactivate <strong>{name}</strong> ({user.email})? They can no longer sign in, and every session they have open ends at
          once. Their tickets, time and history stay, and you can activate the account again later.
        </Text>
      </ConfirmDialog>
    </Stack>
  );
}
