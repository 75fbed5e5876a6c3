import { Button, Center, Divider, Group, Loader, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { USER_STATUSES, type CreateUserPayload, type ResetPasswordPayload, type UpdateUserPayload } from '../../../shared/schemas/users';
import type { User } from '../../../shared/types';
import { HistorySection } from '../../lib/audit/HistorySection';
import { useAuth } from '../../lib/auth-store';
import { formatDate, fullName } from '../../lib/format';
import { optionalOneOf } from '../../lib/search';
import { useCan } from '../../lib/permissions';
import { notify } from '../../lib/toast/notify';
import { ActiveBadge } from '../../lib/ui/ActiveBadge';
import { DataTable, type Column } from '../../lib/ui/DataTable';
import { PageTitle } from '../../lib/ui/PageTitle';
import { RecordDrawer } from '../../lib/ui/RecordDrawer';
import { SearchField } from '../../lib/ui/SearchField';
import { createUser, updateUser, useUser, useUsers } from './api';
import { useUsersSearch } from './search';
import { RoleBadge } from './RoleBadge';
import { CreateUserForm, EditUserForm, ResetPasswordForm } from './UserForms';
import { UserDetails } from './UserDetails';

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

const failed = (title: string) => (error: unknown) => {
  notify.error(title, (error as Error).message);
};

export function UsersPage() {
  const [{ id, component, q, status, page }, view] = useUsersSearch();
  const setSearch = view.update;
  const users = useUsers({ q, status, page });
  const selected = useUser(id);
  const { user: me } = useAuth();
  const [busy, setBusy] = useState(false);
  const canManage = useCan('manageUsers');

  // Without the right to manage users, an address asking for a form shows the record (or nothing).
  const asked = component === 'create' ? 'create' : id ? (component === 'edit' ? 'edit' : 'details') : null;
  const panel = canManage || asked === 'details' ? asked : asked === 'edit' ? 'details' : null;
  const close = () => setSearch({ id: undefined, component: undefined });

  const create = (values: CreateUserPayload) =>
    createUser(values)
      .then((user) => {
        notify.success('User created', fullName(user));
        setSearch({ id: user.id, component: 'details' });
        return users.mutate();
      })
      .then(() => undefined, failed('User not created'));

  const save = (values: UpdateUserPayload) =>
    updateUser(values)
      .then((user) => {
        notify.success('User updated', fullName(user));
        setSearch({ component: 'details' });
        return Promise.all([selected.mutate(user, { revalidate: false }), users.mutate()]);
      })
      .then(() => undefined, failed('User not updated'));

  const resetPassword = (values: ResetPasswordPayload) =>
    updateUser(values).then(
      async (user) => {
        notify.success('Password reset', fullName(user));
        await selected.mutate(user, { revalidate: false });
        return true;
      },
      (error: unknown) => {
        failed('Password not reset')(error);
        return false;
      },
    );

  const toggleActive = (user: User) => {
    setBusy(true);
    updateUser({ id: user.id, isActive: !user.isActive })
      .then((updated) => {
        notify.success(updated.isActive ? 'User activated' : 'User deactivated', fullName(updated));
        return Promise.all([selected.mutate(updated, { revalidate: false }), users.mutate()]);
      })
      .catch(failed('User not updated'))
      .finally(() => setBusy(false));
  };

  const title = panel === 'create' ? 'New user' : selected.data ? fullName(selected.data) : 'User';

  return (
    <>
      <PageTitle
        title="Users"
        description="Staff who can sign in"
        actions={canManage ? <Button onClick={() => setSearch({ id: undefined, component: 'create' })}>New user</Button> : undefined}
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
        onOpen={(user) => setSearch({ id: user.id, component: 'details' })}
        selectedId={id}
        empty={{ title: q || status ? 'No users match' : 'No users yet', description: q || status ? 'Try another name, email or status.' : undefined }}
      />
      <RecordDrawer opened={panel !== null} onClose={close} title={title}>
        {panel === 'create' ? <CreateUserForm onSubmit={create} /> : null}
        {panel && panel !== 'create' && selected.error ? <Text c="red">{selected.error.message}</Text> : null}
        {panel && panel !== 'create' && !selected.data && !selected.error ? (
          <Center py="xl" aria-busy="true">
            <Loader aria-label="Loading user" />
          </Center>
        ) : null}
        {panel === 'details' && selected.data ? (
          <UserDetails
            user={selected.data}
            canManage={canManage}
            busy={busy}
            isSelf={selected.data.id === me?.id}
            onEdit={() => setSearch({ component: 'edit' })}
            onToggleActive={() => selected.data && toggleActive(selected.data)}
          />
        ) : null}
        {panel === 'edit' && selected.data ? (
          <Stack>
            <EditUserForm key={selected.data.updatedAt} user={selected.data} onSubmit={save} />
            <Divider />
            <ResetPasswordForm user={selected.data} onSubmit={resetPassword} />
          </Stack>
        ) : null}
        {panel && panel !== 'create' && selected.data ? (
          <>
            <Divider my="md" />
            <HistorySection changedAt={selected.data.updatedAt} entity="user" entityId={selected.data.id} />
          </>
        ) : null}
      </RecordDrawer>
    </>
  );
}
