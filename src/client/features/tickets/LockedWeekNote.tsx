import { Text } from '@mantine/core';
import { isoWeekOf } from '../../../shared/iso-week';
import { useAuth } from '../../lib/auth-store';
import { today } from '../../lib/today';
import { useApi } from '../../lib/use-api';

/**
 * Says so when the signed-in person's current week is submitted or approved: time in it is locked
 * until an approver rejects it or an admin reopens it (docs/api.md#timesheets). Time for other
 * weeks goes in as usual; a locked one is refused with the week named.
 */
export function LockedWeekNote() {
  const { user } = useAuth();
  const week = isoWeekOf(today());
  const { data } = useApi('GET /timesheets', user ? { query: { week, userId: user.id } } : null);
  if (!data || 'items' in data || (data.state !== 'submitted' && data.state !== 'approved')) return null;
  return (
    <Text size="sm" c="dimmed" data-testid="locked-week">
      Your week {week} is {data.state}: time in it is locked.
    </Text>
  );
}
