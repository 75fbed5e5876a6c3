import { Text } from '@mantine/core';
import { useAuth } from '../../lib/auth-store';
import { PageTitle } from '../../lib/ui/PageTitle';

export function DashboardPage() {
  const { user } = useAuth();
  return (
    <>
      <PageTitle title="Dashboard" />
      <Text>Welcome back{user ? `, ${user.firstName}` : ''}.</Text>
    </>
  );
}
