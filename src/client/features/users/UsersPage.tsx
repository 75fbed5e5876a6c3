import { Text } from '@mantine/core';
import { PageTitle } from '../../lib/ui/PageTitle';
import { useUsersSearch } from './search';

export function UsersPage() {
  const [{ id }] = useUsersSearch();
  return (
    <>
      <PageTitle title="Users" description="Staff accounts" />
      <Text c="dimmed" data-testid="selected-record">
        {id === undefined ? 'Nothing selected' : `Selected #${id}`}
      </Text>
    </>
  );
}
