import '@mantine/charts/styles.css';
import { BarChart, LineChart } from '@mantine/charts';
import { Alert, Button, Group, Paper, Select, SimpleGrid, Skeleton, Table, Text, TextInput, Title } from '@mantine/core';
import { useReducedMotion } from '@mantine/hooks';
import { useState } from 'react';
import { toCsv } from '../../../shared/csv';
import { TICKET_REPORT_GROUPS, type TicketReportGroup } from '../../../shared/schemas/reports';
import { saveCsv } from '../../lib/download';
import { PageTitle } from '../../lib/ui/PageTitle';
import { StatCard } from '../../lib/ui/StatCard';
import { STATUS_LABELS } from '../tickets/labels';
import { useTicketReport } from './api';
import { today } from './ranges';

const GROUP_LABELS: Record<TicketReportGroup, string> = { status: 'Status', category: 'Category', company: 'Company', assignee: 'Assignee' };
/** A group's name as people read it: statuses by their label, the rest as the API names them. */
const groupName = (groupBy: TicketReportGroup, label: string) =>
  groupBy === 'status' ? (STATUS_LABELS[label as keyof typeof STATUS_LABELS] ?? label) : label;
const yearAgo = () => new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);

/** Ticket counts by a grouping over a date range, opened against resolved, and time to resolve. */
export function TicketReportPage() {
  const [range, setRange] = useState({ from: yearAgo(), to: today() });
  const [groupBy, setGroupBy] = useState<TicketReportGroup>('status');
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(range.from) && /^\d{4}-\d{2}-\d{2}$/.test(range.to) && range.from <= range.to;
  const { data, error, mutate } = useTicketReport(valid ? { ...range, groupBy } : null);
  const animate = !useReducedMotion();
  const loading = valid && !data && !error;

  const groups = data?.groups.map((g) => ({ ...g, label: groupName(groupBy, g.label) }));

  const exportCsv = () => {
    if (!data || !groups) return;
    const groupRows = groups.map((g) => [GROUP_LABELS[groupBy].toLowerCase(), g.label, g.count]);
    const series = data.series.map((s) => ['opened_resolved', s.bucket, `${s.opened}/${s.resolved}`]);
    saveCsv(toCsv(['section', 'key', 'value'], [...groupRows, ...series]), `ticket-report-${range.from}-to-${range.to}.csv`);
  };

  return (
    <>
      <PageTitle title="Ticket report" description={`${range.from} to ${range.to}`} actions={<Button variant="light" onClick={exportCsv} disabled={!data}>Export CSV</Button>} />
      <Group mb="md" align="flex-end" wrap="wrap">
        <TextInput type="date" label="From" value={range.from} max={range.to} onChange={(e) => setRange((r) => ({ ...r, from: e.currentTarget.value }))} />
        <TextInput type="date" label="To" value={range.to} min={range.from} onChange={(e) => setRange((r) => ({ ...r, to: e.currentTarget.value }))} />
        <Select label="Group by" data={TICKET_REPORT_GROUPS.map((value) => ({ value, label: GROUP_LABELS[value] }))} value={groupBy} onChange={(value) => value && setGroupBy(value as TicketReportGroup)} allowDeselect={false} />
      </Group>
      {!valid ? <Alert color="yellow" mb="md">Choose a start date on or before the end date.</Alert> : null}
      {error ? (
        <Alert color="red" title="Could not load the report" mb="md">
          {error.message} <Button size="xs" variant="white" onClick={() => mutate()}>Try again</Button>
        </Alert>
      ) : null}
      <SimpleGrid cols={{ base: 1, xs: 3 }} mb="md" aria-busy={loading}>
        <StatCard label="Opened" value={data ? data.totals.opened.toLocaleString() : '…'} />
        <StatCard label="Resolved" value={data ? data.totals.resolved.toLocaleString() : '…'} />
        <StatCard label="Median time to resolve" value={data ? (data.medianResolveHours === null ? '—' : `${data.medianResolveHours} h`) : '…'} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }} mb="md" aria-busy={loading}>
        <Paper withBorder p="md">
          <Title order={2} size="h5" mb="sm">
            Opened vs resolved per {data?.bucket ?? 'day'}
          </Title>
          {data ? (
            <LineChart
              h={240}
              data={data.series}
              dataKey="bucket"
              series={[
                { name: 'opened', label: 'Opened', color: 'blue.6' },
                { name: 'resolved', label: 'Resolved', color: 'green.6' },
              ]}
              withLegend
              withDots={false}
              lineProps={{ isAnimationActive: animate }}
              data-testid="ticket-report-chart"
            />
          ) : (
            <Skeleton height={240} />
          )}
          {data ? (
            // The chart's figures as text, for screen readers and for reading exact values.
            <details>
              <summary>Show as a table</summary>
              <Table.ScrollContainer minWidth={0} type="native" mah={240}>
                <Table aria-label={`Opened and resolved per ${data.bucket}`} striped>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Period</Table.Th>
                      <Table.Th ta="right">Opened</Table.Th>
                      <Table.Th ta="right">Resolved</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.series.map((point) => (
                      <Table.Tr key={point.bucket}>
                        <Table.Td>{point.bucket}</Table.Td>
                        <Table.Td ta="right">{point.opened.toLocaleString()}</Table.Td>
                        <Table.Td ta="right">{point.resolved.toLocaleString()}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </details>
          ) : null}
        </Paper>
        <Paper withBorder p="md">
          <Title order={2} size="h5" mb="sm">
            By {GROUP_LABELS[groupBy].toLowerCase()}
          </Title>
          {groups ? (
            <BarChart h={240} data={groups.slice(0, 12)} dataKey="label" series={[{ name: 'count', label: 'Tickets', color: 'violet.6' }]} orientation="vertical" yAxisProps={{ width: 120 }} barProps={{ isAnimationActive: animate }} />
          ) : (
            <Skeleton height={240} />
          )}
        </Paper>
      </SimpleGrid>
      {groups ? (
        <Table aria-label={`Tickets by ${GROUP_LABELS[groupBy].toLowerCase()}`} striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{GROUP_LABELS[groupBy]}</Table.Th>
              <Table.Th ta="right">Tickets</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {groups.map((g) => (
              <Table.Tr key={g.key}>
                <Table.Td>{g.label}</Table.Td>
                <Table.Td ta="right">{g.count.toLocaleString()}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
      {data && data.groups.length === 0 ? <Text c="dimmed">No tickets were opened in this range.</Text> : null}
    </>
  );
}
