import '@mantine/charts/styles.css';
import { BarChart, LineChart } from '@mantine/charts';
import { Alert, Button, Group, Paper, Select, SimpleGrid, Skeleton, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue, useReducedMotion } from '@mantine/hooks';
import { useEffect, useMemo, useState, type ChangeEvent } from 'react';
import { toCsv } from '../../../shared/csv';
import { TICKET_REPORT_GROUPS, type TicketReportGroup } from '../../../shared/schemas/reports';
import { saveCsv } from '../../lib/download';
import { formatDate, formatDayRange, formatHours, formatMonth } from '../../lib/format';
import { today } from '../../lib/today';
import { PageTitle } from '../../lib/ui/PageTitle';
import { StatCard } from '../../lib/ui/StatCard';
import { STATUS_LABELS } from '../../lib/ticket-labels';
import { useTicketReport } from './api';
import { isValidRange, lastYear, RANGE_PRESETS, rangeErrors, type DayRange } from './report-range';
import { rangeParts, rangeValue, useTicketReportParams } from '../../lib/addresses/reports';

// How long typing must pause before a date counts: a year typed digit by digit passes through
// whole but wrong dates (0002, 0020, 0202) that should neither flash an error nor be fetched.
const SETTLE_MS = 400;

const GROUP_LABELS: Record<TicketReportGroup, string> = { status: 'Status', category: 'Category', company: 'Company', assignee: 'Assignee' };
/** A group's name as people read it: statuses by their label, the rest as the API names them. */
const groupName = (groupBy: TicketReportGroup, label: string) =>
  groupBy === 'status' ? (STATUS_LABELS[label as keyof typeof STATUS_LABELS] ?? label) : label;

/** A series bucket (`YYYY-MM-DD` or `YYYY-MM`) as people read it. */
const bucketLabel = (bucket: string) => (bucket.length === 7 ? formatMonth(bucket) : formatDate(bucket));

/** Ticket counts by a grouping over a date range, opened against resolved, and time to resolve. */
export function TicketReportPage() {
  const [params, setParams] = useTicketReportParams();
  const range = useMemo(() => {
    const fromAddress = params.range ? rangeParts(params.range) : null;
    return fromAddress && isValidRange(fromAddress) ? fromAddress : lastYear(today());
  }, [params.range]);
  // What the date fields hold while someone types; the report follows once it is a valid range.
  const [draft, setDraft] = useState<DayRange>(range);
  const [draftOf, setDraftOf] = useState(range);
  if (draftOf !== range) {
    // The address moved (Back, a link, a preset, a valid edit): the fields show what it now says.
    setDraftOf(range);
    setDraft(range);
  }
  const [settled] = useDebouncedValue(draft, SETTLE_MS);
  // Messages wait for the pause too, and go as soon as typing resumes.
  // A stale settled value (the address just moved on) neither shows messages nor moves the address back.
  const current = settled === draft;
  const errors = current ? rangeErrors(settled) : {};
  const settledValid = current && isValidRange(settled);
  useEffect(() => {
    if (settledValid && rangeValue(settled) !== rangeValue(range)) setParams({ range: rangeValue(settled) }, { replace: true });
  }, [settled, settledValid, range, setParams]);
  const [groupBy, setGroupBy] = useState<TicketReportGroup>('status');
  const { data, error, mutate } = useTicketReport({ ...range, groupBy });
  const animate = !useReducedMotion();
  const loading = !data && !error;
  // A failed request shows its message in the alert above, not a skeleton that never resolves.
  const placeholder = (height: number) => (error ? <Text c="dimmed">Not loaded.</Text> : <Skeleton height={height} />);

  // The value is read while the event is current; React may run the state update later.
  const edit = (field: keyof DayRange) => (event: ChangeEvent<HTMLInputElement>) => {
    const { value } = event.currentTarget;
    setDraft((current) => ({ ...current, [field]: value }));
  };
  const preset = RANGE_PRESETS.find((p) => rangeValue(p.range(today())) === rangeValue(range));

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
      <Group mb="md" align="flex-end" wrap="wrap">
        <TextInput type="date" label="From" value={draft.from} max={draft.to} onChange={edit('from')} error={errors.from} />
        <TextInput type="date" label="To" value={draft.to} min={draft.from} onChange={edit('to')} error={errors.to} />
        <Select label="Group by" data={TICKET_REPORT_GROUPS.map((value) => ({ value, label: GROUP_LABELS[value] }))} value={groupBy} onChange={(value) => value && setGroupBy(value as TicketReportGroup)} allowDeselect={false} />
      </Group>
      <Group gap="xs" mb="md" role="group" aria-label="Date range presets">
        {RANGE_PRESETS.map((p) => (
          <Button
            key={p.label}
            size="xs"
            variant={preset === p ? 'filled' : 'default'}
            aria-pressed={preset === p}
            onClick={() => setParams({ range: rangeValue(p.range(today())) })}
          >
            {p.label}
          </Button>
        ))}
      </Group>
      {error ? (
        <Alert color="red" title="Could not load the report" mb="md">
          {error.message} <Button size="xs" variant="white" onClick={() => mutate()}>Try again</Button>
        </Alert>
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
