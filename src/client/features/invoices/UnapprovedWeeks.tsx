import { Alert, List } from '@mantine/core';
import { formatMinutes, formatMonth } from '../../lib/format';
import { useApi } from '../../lib/use-api';

/**
 * Billing a month whose time is not all signed off: the person-weeks with time in `period` that
 * are not approved yet (docs/api.md#timesheets). A warning, never a block; read while `opened`,
 * so it is the state of the moment the person decides.
 */
export function UnapprovedWeeks({ period, opened }: { period: string; opened: boolean }) {
  const { data } = useApi('GET /timesheets/unapproved', opened ? { query: { period } } : null);
  if (!data || data.total === 0) return null;
  const more = data.total - data.weeks.length;
  const title = `${data.total} ${data.total === 1 ? 'week' : 'weeks'} with time in ${formatMonth(period)} ${data.total === 1 ? 'is' : 'are'} not approved`;
  return (
    <Alert color="yellow" title={title} data-testid="unapproved-weeks">
      <List size="sm" spacing={2}>
        {data.weeks.map((week) => (
          <List.Item key={`${week.userId}:${week.week}`}>
            {week.userName}, {week.week} ({week.state}, {formatMinutes(week.minutes)})
          </List.Item>
        ))}
      </List>
      {more > 0 ? `and ${more} more. ` : null}
      You can go on; approve them in Reports → Timesheet first if they should be signed off before billing.
    </Alert>
  );
}
