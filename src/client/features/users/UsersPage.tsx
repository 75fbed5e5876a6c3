import { Button, Divider, Group, Select, Stack, Text } from '@mantine/core';
import { USER_STATUSES, type CreateUserPayload, type ResetPasswordPayload, type UpdateUserPayload } from '../../../shared/schemas/users';
import type { User } from '../../../shared/types';
import { HistorySection } from '../../lib/audit/HistorySection';
import { useAuth } from '../../lib/auth-store';
import { formatDate, fullName } from '../../lib/format';
import { optionalOneOf } from '../../lib/url-state';
import { useCan } from '../../lib/permissions';
import { useAction, type Mutation } from '../../lib/form/use-mutation';
import { ActiveBadge } from '../../lib/ui/ActiveBadge';
import { DataTable, type Column } from '../../lib/ui/DataTable';
import { PageTitle } from '../../lib/ui/PageTitle';
import { RecordDrawer } from '../../lib/ui/RecordDrawer';
import { SearchField } from '../../lib/ui/SearchField';
import { createUser, updateUser, useUser, useUsers } from './api';
import { useUsersParams } from '../../lib/addresses/users';
import { RoleBadge } from './RoleBadge';
import { CreateUserForm, EditUserForm, ResetPasswordForm } from './UserForms';
import { UserDetails } from './UserDetails';
import { RecordState } from '../../lib/ui/RecordState';

const STATUS_OPTIONS = [
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
];

const COLUMNS: Column<User>[] = [
  { key: 'name', label: 'Name', render: (user) => <Text fw={500} size="sm">{fullName(user)}</Text> },
  { key: 'email', label: 'Email', render: (user) => user.email, visibleFrom: 'sm' },
  { key: 'role', label: 'Role', render: (user) => <RoleBadge role={user.role} />, visibleFrom: 'xs' },
  {
    key: 'status',
    label: 'Status',
    render: (user) => <ActiveBadge active={user.isActive} />,
  },
  { key: 'created', label: 'Created', render: (user) => formatDate(user.createdAt), visibleFrom: 'md' },
];

export function UsersPage() {
  const [{ id, component, q, status, page }, view] = useUsersParams();
  const setParams = view.update;
  const users = useUsers({ q, status, page });
  const selected = useUser(id);
  const { user: me } = useAuth();
  const canManage = useCan('manageUsers');

  // Without the right to manage users, an address asking for a form shows the record (or nothing).
  const asked = component === 'create' ? 'create' : id ? (component === 'edit' ? 'edit' : 'details') : null;
  const panel = canManage || asked === 'details' ? asked : asked === 'edit' ? 'details' : null;
  const close = () => setParams({ id: undefined, component: undefined });

  const showUser = (user: User) => Promise.all([selected.mutate(user, { revalidate: false }), users.mutate()]);

  const create: Mutation<CreateUserPayload, User> = {
    send: (values) => createUser(values),
    success: (user) => ['User created', fullName(user)],
    failure: 'User not created',
    onSuccess: async (user) => {
      setParams({ id: user.id, component: 'details' });
      await users.mutate();
    },
  };

  const save: Mutation<UpdateUserPayload, User> = {
    send: (values, ifMatch) => updateUser(values, ifMatch),
    success: (user) => ['User updated', fullName(user)],
    failure: 'User not updated',
    onSuccess: async (user) => {
      setParams({ component: 'details' });
      await showUser(user);
    },
  };

  const resetPassword: Mutation<ResetPasswordPayload, User> = {
    send: (values) => updateUser(values),
    success: (user) => ['Password reset', fullName(user)],
    failure: 'Password not reset',
    onSuccess: (user) => selected.mutate(user, { revalidate: false }),
  };

  const toggleActive = useAction<User, User>({
    send: (user) => updateUser({ id: user.id, isActive: !user.isActive }, user.version),
    success: (updated) => [updated.isActive ? 'User activated' : 'User deactivated', fullName(updated)],
    failure: 'User not updated',
    onSuccess: showUser,
    onConflict: showUser,
  });

  const title = panel === 'create' ? 'New user' : selected.data ? fullName(selected.data) : 'User';

  return (
    <>
      <PageTitle
        title="Users"
        description="Staff who can sign in"
        actions={canManage ? <Button onClick={() => setParams({ id: undefined, component: 'create' })}>New user</Button> : undefined}
      />
      <Group mb="md" grow>
        <SearchField label="Search" placeholder="Name or email" value={q} onSearch={view.search} />
        <Select
          label="Status"
          placeholder="Any"
          data={STATUS_OPTIONS}
          value={status ?? null}
          onChange={(value) => view.filter({ status: optionalOneOf(USER_STATUSES, value) })}
          clearable
        />
      </Group>
      <DataTable
        label="Users"
        columns={COLUMNS}
        page={users.data}
        error={users.error}
        onRetry={() => users.mutate()}
        onPageChange={view.goTo}
        onOpen={(user) => setParams({ id: user.id, component: 'details' })}
        selectedId={id}
        empty={{ title: q || status ? 'No users match' : 'No users yet', description: q || status ? 'Try another name, email or status.' : undefined }}
      />
      <RecordDrawer opened={panel !== null} onClose={close} title={title} keys={['id', 'component']}>
        {panel === 'create' ? <CreateUserForm mutation={create} /> : null}
        {panel && panel !== 'create' ? (
          <RecordState read={selected} noun="User">
            {(user) => (
              <>
                {panel === 'details' ? (
                  <UserDetails
                    user={user}
                    canManage={canManage}
                    busy={toggleActive.busy}
                    isSelf={user.id === me?.id}
                    onEdit={() => setParams({ component: 'edit' })}
                    onToggleActive={() => void toggleActive.run(user)}
                  />
                ) : null}
                {panel === 'edit' ? (
                  <Stack>
                    <EditUserForm key={user.updatedAt} user={user} mutation={save} onReload={(current) => void showUser(current)} />
                    <Divider />
                    <ResetPasswordForm user={user} mutation={resetPassword} />
                  </Stack>
                ) : null}
                <Divider my="md" />
                <HistorySection changedAt={user.updatedAt} entity="user" entityId={user.id} />
              </>
            )}
          </RecordState>
        ) : null}
      </RecordDrawer>
    </>
  );
}
