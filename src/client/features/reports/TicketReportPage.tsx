import '@mantine/charts/styles.css';
import { BarChart, LineChart } from '@mantine/charts';
import { Box, Button, Paper, Select, SimpleGrid, Skeleton, Table, Text, Title } from '@mantine/core';
import { useReducedMotion } from '@mantine/hooks';
import { useCallback, useState } from 'react';
import { toCsv } from '../../../shared/csv';
import { TICKET_REPORT_GROUPS, type TicketReportGroup } from '../../../shared/schemas/reports';
import { saveCsv } from '../../lib/download';
import { formatDate, formatDayRange, formatHours, formatMonth } from '../../lib/format';
import { LoadError } from '../../lib/ui/LoadError';
import { PageTitle } from '../../lib/ui/PageTitle';
import { StatCard } from '../../lib/ui/StatCard';
import { STATUS_LABELS } from '../../lib/ticket-labels';
import { useTicketReport } from './api';
import { useTicketReportParams } from '../../lib/addresses/reports';
import { ReportRangeControls, useReportRange } from './ReportRange';

const GROUP_LABELS: Record<TicketReportGroup, string> = { status: 'Status', category: 'Category', company: 'Company', assignee: 'Assignee' };
/** A group's name as people read it: statuses by their label, the rest as the API names them. */
const groupName = (groupBy: TicketReportGroup, label: string) =>
  groupBy === 'status' ? (STATUS_LABELS[label as keyof typeof STATUS_LABELS] ?? label) : label;

/** A series bucket (`YYYY-MM-DD` or `YYYY-MM`) as people read it. */
const bucketLabel = (bucket: string) => (bucket.length === 7 ? formatMonth(bucket) : formatDate(bucket));

/** Ticket counts by a grouping over a date range, opened against resolved, and time to resolve. */
export function TicketReportPage() {
  const [params, setParams] = useTicketReportParams();
  const rangeState = useReportRange(
    params.range,
    useCallback((range: string, options: { replace: boolean }) => setParams({ range }, options), [setParams]),
  );
  const { range } = rangeState;
  const [groupBy, setGroupBy] = useState<TicketReportGroup>('status');
  const { data, error, mutate } = useTicketReport({ ...range, groupBy });
  const animate = !useReducedMotion();
  const loading = !data && !error;
  // A failed request shows its message in the alert above, not a skeleton that never resolves.
  const placeholder = (height: number) => (error ? <Text c="dimmed">Not loaded.</Text> : <Skeleton height={height} />);

  const groups = data?.groups.map((g) => ({ ...g, label: groupName(groupBy, g.label) }));

  const exportCsv = () => {
    if (!data || !groups) return;
    // Counts are numeric columns of their own; "4/5" in one cell reads as a date in spreadsheets.
    const groupRows = groups.map((g) => [GROUP_LABELS[groupBy].toLowerCase(), g.label, g.count, null, null]);
    const series = data.series.map((s) => ['opened_resolved', s.bucket, null, s.opened, s.resolved]);
    saveCsv(toCsv(['section', 'key', 'count', 'opened', 'resolved'], [...groupRows, ...series]), `ticket-report-${range.from}-to-${range.to}.csv`);
  };

  return (
    <>
      <PageTitle title="Ticket report" description={formatDayRange(range)} actions={<Button variant="light" onClick={exportCsv} disabled={!data}>Export CSV</Button>} />
      <ReportRangeControls state={rangeState}>
        <Select label="Group by" data={TICKET_REPORT_GROUPS.map((value) => ({ value, label: GROUP_LABELS[value] }))} value={groupBy} onChange={(value) => value && setGroupBy(value as TicketReportGroup)} allowDeselect={false} />
      </ReportRangeControls>
      {error ? (
        <Box mb="md">
          <LoadError title="Could not load the report" error={error} onRetry={() => void mutate()} />
        </Box>
      ) : null}
      <SimpleGrid cols={{ base: 1, xs: 3 }} mb="md" aria-busy={loading}>
        <StatCard label="Opened" value={data ? data.totals.opened.toLocaleString() : '…'} />
        <StatCard label="Resolved" value={data ? data.totals.resolved.toLocaleString() : '…'} />
        <StatCard label="Median time to resolve" value={data ? (data.medianResolveHours === null ? '—' : formatHours(data.medianResolveHours)) : '…'} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }} mb="md" aria-busy={loading}>
        <Paper withBorder p="md">
          <Title order={2} size="h5" mb="sm">
            Opened vs resolved per {data?.bucket ?? 'day'}
          </Title>
          {data ? (
            <LineChart
              h={240}
              data={data.series.map((point) => ({ ...point, label: bucketLabel(point.bucket) }))}
              dataKey="label"
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
            placeholder(240)
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
                        <Table.Td>{bucketLabel(point.bucket)}</Table.Td>
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
            placeholder(240)
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
