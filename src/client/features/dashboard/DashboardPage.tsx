import { Alert, Anchor, Badge, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useDeferredValue } from 'react';
import { Link } from 'react-router-dom';
import { addDays } from '../../../shared/dates';
import { SLA_DUE_SOON_HOURS } from '../../../shared/sla';
import { useAuth } from '../../lib/auth-store';
import { formatCents, formatDate, formatMinutes } from '../../lib/format';
import { today } from '../../lib/today';
import { PageTitle } from '../../lib/ui/PageTitle';
import { StatCard } from '../../lib/ui/StatCard';
import { STATUS_COLORS, STATUS_LABELS } from '../../lib/ticket-labels';
import { useDashboard } from '../../lib/dashboard-summary';
import { OpenedVsResolvedChart } from './OpenedVsResolvedChart';
import { PAGES } from '../../lib/pages';
import { links } from '../../lib/links';

export function DashboardPage() {
  const { user } = useAuth();
  const { data: answered, error, mutate } = useDashboard();
  // SWR hands its answer over in a render React may not pause (useSyncExternalStore); the figures
  // and the chart draw in a deferred render instead, which yields to the browser every few
  // milliseconds, so a slow phone is never blocked for the whole page at once.
  const data = useDeferredValue(answered);
  // The figures' regions tell assistive tech they are still loading.
  const loading = !data && !error;
  const value = <T,>(pick: (d: NonNullable<typeof data>) => T) => (data ? pick(data) : <Skeleton height={24} width={60} />);

  return (
    <>
      <PageTitle title="Dashboard" description={user ? `Welcome back, ${user.firstName}.` : undefined} />
      {error ? (
        <Alert color="red" title="Could not load the dashboard" mb="md">
          {error.message}{' '}
          <Anchor component="button" type="button" onClick={() => mutate()}>
            Try again
          </Anchor>
        </Alert>
      ) : null}
      <SimpleGrid cols={{ base: 2, sm: 4 }} mb="lg" aria-busy={loading}>
        <StatCard label="Open tickets" value={value((d) => d.openTickets.toLocaleString())} to={links.tickets({ open: true })} />
        <StatCard label="My open tickets" value={value((d) => d.myOpenTickets.toLocaleString())} to={links.tickets({ open: true, mine: true })} />
        <StatCard label="Overdue" value={value((d) => d.overdue.toLocaleString())} to={links.tickets({ overdue: true, sort: 'dueAt' })} />
        <StatCard label="Resolved, last 7 days" value={value((d) => d.resolvedLast7Days.toLocaleString())} to={links.ticketReport(addDays(today(), -6), today())} />
        <StatCard label="Hours this week" value={value((d) => formatMinutes(d.minutesThisWeek))} to={`${PAGES.timesheet}/`} />
        <StatCard label="Unbilled" value={value((d) => formatCents(d.unbilledCents))} to={`${PAGES.gifs}/`} />
        <StatCard label="SLA breached" value={value((d) => d.slaBreached.toLocaleString())} to={links.tickets({ open: true, sla: 'breached' })} />
        <StatCard
          label={`SLA due within ${SLA_DUE_SOON_HOURS} hours`}
          value={value((d) => d.slaDueSoon.toLocaleString())}
          to={links.tickets({ sla: 'due_soon', sort: 'slaDueAt' })}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }} aria-busy={loading}>
        <Paper withBorder p="md">
          <Title order={2} size="h4" mb="sm">
            Opened vs resolved, last 30 days
          </Title>
          {data ? <OpenedVsResolvedChart days={data.openedVsResolved} /> : <Skeleton height={264} />}
        </Paper>
        <Paper withBorder p="md">
          <Title order={2} size="h4" mb="sm">
            Recent tickets
          </Title>
          <Stack gap={6}>
            {data?.recentTickets.map((ticket) => (
              <Group key={ticket.id} justify="space-between" wrap="nowrap">
                <Anchor component={Link} to={links.ticket(ticket.id)} size="sm" lineClamp={1}>
                  #{ticket.id} {ticket.title}
                </Anchor>
                <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
                  <Badge variant="light" size="sm" color={STATUS_COLORS[ticket.status]}>
                    {STATUS_LABELS[ticket.status]}
                  </Badge>
                  <Text size="xs" c="dimmed" visibleFrom="sm">
                    {formatDate(ticket.createdAt)}
                  </Text>
                </Group>
              </Group>
            ))}
            {data && data.recentTickets.length === 0 ? <Text c="dimmed">No tickets yet.</Text> : null}
            {!data && !error ? <Skeleton height={160} /> : null}
          </Stack>
        </Paper>
      </SimpleGrid>
    </>
  );
}
