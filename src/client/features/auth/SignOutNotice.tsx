import { Paper, Text } from '@mantine/core';
import { useSnapshot } from 'valtio';
import { signOutNotice } from '../../lib/auth-store';

/**
 * Why the person is back at the sign-in page when they did not sign out here (another tab did, or
 * the server ended the session), above the form rather than in a toast over it. A role="alert"
 * region is read out as it appears. Built from the parts the sign-in page already loads, so
 * Mantine's Alert does not join its bundle.
 */
export function SignOutNotice() {
  const { reason } = useSnapshot(signOutNotice);
  if (!reason) return null;
  return (
    <Paper role="alert" p="sm" radius="sm" bg="var(--mantine-color-blue-light)" c="var(--mantine-color-blue-light-color)">
      <Text size="sm">{reason}</Text>
    </Paper>
  );
}
