import { Anchor, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { useDashboardFigures } from '../../lib/dashboard-summary';
import { formatCents, formatMonth } from '../../lib/format';
import { PageTitle } from '../../lib/ui/PageTitle';
import { StatCard } from '../../lib/ui/StatCard';
import { useLines, useStatements } from './api';
import classes from './gifs-overview.module.css';
import { recentPeriods } from './labels';
import { StatementBadge } from './StatementBadge';
import { PAGES } from '../../lib/pages';
import { links } from '../../lib/links';

/** The GIFS index: this month's SLA and Azure totals and where the statements stand. */
export function GifsOverviewPage() {
  const [thisMonth] = recentPeriods(1);
  const sla = useLines('gifs-sla', { period: thisMonth, page: 1 });
  const azure = useLines('gifs-azure', { period: thisMonth, page: 1 });
  const statements = useStatements(1, {}, 12);
  // The dashboard's Unbilled card leads here: the same figure from the same call.
  const summary = useDashboardFigures();
  const issued = statements.data?.items.filter((s) => s.status === 'issued') ?? [];
  const outstanding = issued.reduce((sum, s) => sum + s.totalCents, 0);
  const money = (cents: number | undefined) => (cents === undefined ? '…' : formatCents(cents));

  return (
    <>
      <PageTitle title="GIFS" description={`Billing for ${thisMonth ? formatMonth(thisMonth) : 'this month'} and recent statements`} />
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 5 }} mb="lg">
        <StatCard label="SLA this month" value={money(sla.data?.totals.amountCents)} hint={<Anchor component={Link} to={PAGES.gifsSla} size="xs">Open SLA ledger</Anchor>} />
        <StatCard label="Azure this month" value={money(azure.data?.totals.amountCents)} hint={<Anchor component={Link} to={PAGES.gifsAzure} size="xs">Open Azure ledger</Anchor>} />
        <StatCard label="Outstanding" value={statements.data ? formatCents(outstanding) : '…'} hint={`${issued.length} issued, unpaid`} />
        <StatCard label="Unbilled" value={summary.error ? '—' : money(summary.data?.unbilledCents)} hint="Draft and approved lines of every ledger (Autofi, 3D Tracking, SLA, Azure) not yet invoiced" />
        <StatCard label="Statements" value={statements.data ? statements.data.total : '…'} hint={<Anchor component={Link} to={PAGES.gifsStatements} size="xs">Open statements</Anchor>} />
      </SimpleGrid>
      <Title order={2} size="h4" mb="sm">
        Recent statements
      </Title>
      <Stack gap="xs">
        {statements.data?.items.slice(0, 6).map((s) => (
          <Paper key={s.id} withBorder p="sm" component={Link} to={links.statement(s.id)} className={classes.statement}>
            <Group justify="space-between">
              <Text fw={500} className={classes.name}>
                {formatMonth(s.period)} · {s.number}
              </Text>
              <Group gap="sm">
                <StatementBadge statement={s} />
                <Text fw={600}>{formatCents(s.totalCents)}</Text>
              </Group>
            </Group>
          </Paper>
        ))}
        {statements.data?.items.length === 0 ? <Text c="dimmed">No statements yet.</Text> : null}
        {statements.error ? <Text c="red">{statements.error.message}</Text> : null}
      </Stack>
    </>
  );
}
