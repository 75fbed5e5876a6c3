import { Stack, Text, Title } from '@mantine/core';
import { useAuth } from '../../lib/auth-store';

export function DashboardPage() {
  const { user } = useAuth();
  return (
    <Stack p="md">
      <Title order={1}>Dashboard</Title>
      <Text>Welcome back{user ? `, ${user.firstName}` : ''}.</Text>
    </Stack>
  );
}
