import { Anchor, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { useDashboardFigures } from '../../lib/dashboard-summary';
import { formatCents, formatMonth } from '../../lib/format';
import { PageTitle } from '../../lib/ui/PageTitle';
import { StatCard } from '../../lib/ui/StatCard';
import { useAging, useLines, useStatements } from './api';
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
  // Open statements are those not settled: generated and not yet issued, or issued with a balance
  // still owed (the aging's count). Paid and void ones are done. Both figures count every GIFS
  // statement, not only the recent ones listed below.
  const toIssue = useStatements(1, { state: 'open' }, 1);
  const owed = useAging('gifs');
  const awaiting = owed.data?.totals.statements;
  const open = toIssue.data && awaiting !== undefined ? toIssue.data.total + awaiting : undefined;
  // The dashboard's Unbilled card leads here: the same figure from the same call.
  const summary = useDashboardFigures();
  const money = (cents: number | undefined) => (cents === undefined ? '…' : formatCents(cents));

  return (
    <>
      <PageTitle title="GIFS" description={`Billing for ${thisMonth ? formatMonth(thisMonth) : 'this month'} and recent statements`} />
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 5 }} mb="lg">
        <StatCard label="SLA this month" value={money(sla.data?.totals.amountCents)} hint={<Anchor component={Link} to={PAGES.gifsSla} size="xs">Open SLA ledger</Anchor>} />
        <StatCard label="Azure this month" value={money(azure.data?.totals.amountCents)} hint={<Anchor component={Link} to={PAGES.gifsAzure} size="xs">Open Azure ledger</Anchor>} />
        <StatCard label="Outstanding" value={owed.error ? '—' : money(owed.data?.totals.balanceCents)} hint={awaiting === undefined ? 'Balance of issued statements' : `Balance of ${awaiting} issued ${awaiting === 1 ? 'statement' : 'statements'}`} />
        <StatCard label="Unbilled" value={summary.error ? '—' : money(summary.data?.unbilledCents)} hint="Draft and approved lines of every ledger (Autofi, 3D Tracking, SLA, Azure) not yet invoiced" />
        <StatCard
          label="Open statements"
          value={toIssue.error || owed.error ? '—' : (open ?? '…')}
          hint={
            <>
              {open === undefined ? null : `${toIssue.data?.total ?? 0} to issue, ${awaiting ?? 0} awaiting payment`}
              {/* A line of its own: a link inside the sentence would need more than colour to stand out. */}
              <Anchor component={Link} to={PAGES.gifsStatements} size="xs" display="block">
                All statements
              </Anchor>
            </>
          }
        />
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
