import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { useMediaQuery, useReducedMotion } from '@mantine/hooks';
import { ActionIcon, Alert, Button, Group, Paper, SegmentedControl, SimpleGrid, Skeleton, Table, Text } from '@mantine/core';
import { useMemo } from 'react';
import { toCsv, type CsvDecimal } from '../../../shared/csv';
import { saveCsv } from '../../lib/download';
import { formatDayRange, formatMinutes, formatWeekday, formatWeekdayName } from '../../lib/format';
import { PageTitle } from '../../lib/ui/PageTitle';
import { StatCard } from '../../lib/ui/StatCard';
import { useTimesheet } from './api';
import { addDays, daysBetween } from '../../../shared/dates';
import { today } from '../../lib/today';
import { rangeAround, shiftRange } from './ranges';
import { useTimesheetParams, type RangeMode } from '../../lib/addresses/reports';
import classes from './timesheet.module.css';
import { WeekStates } from './WeekStates';

const hours = (minutes: number) => (minutes / 60).toFixed(2);
const hoursCell = (minutes: number): CsvDecimal => ({ decimal: hours(minutes) });

/**
 * The day to build the other kind of period around, so switching keeps the period on screen: a
 * week belongs to the month of its Thursday (ISO 8601), so its Thursday picks the month; a month
 * shows the week holding today when today is in it, else its first week whose Thursday falls in it.
 */
const switchAnchor = (mode: RangeMode, range: { from: string; to: string }, now: string) => {
  if (mode === 'week') return addDays(range.from, 3);
  return range.from <= now && now <= range.to ? now : addDays(range.from, 3);
};

/** Hours per person per day for a week or a month, billable split, with totals, a chart and CSV. */
export function TimesheetPage() {
  const [{ view: mode = 'week', from }, setParams] = useTimesheetParams();
  const range = useMemo(() => rangeAround(mode, from ?? today()), [mode, from]);
  const show = (next: { from: string }, view: RangeMode = mode) => setParams({ view: view === 'week' ? undefined : view, from: next.from });
  const { data, error, mutate } = useTimesheet(range);
  const animate = !useReducedMotion();
  // A phone's week chart names the weekdays only: seven "10 Wed" labels run into each other there.
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  const chartLabel = mode === 'week' && phone ? formatWeekdayName : formatWeekday;
  const loading = !data && !error;
  const days = useMemo(() => daysBetween(range.from, range.to), [range]);
  // The API lists only days with time; the chart and the totals row show every day of the range.
  const dayTotal = useMemo(() => new Map((data?.days ?? []).map((d) => [d.workDate, d])), [data]);
  const cell = useMemo(() => new Map((data?.cells ?? []).map((c) => [`${c.userId}:${c.workDate}`, c])), [data]);

  const exportCsv = () => {
    if (!data) return;
    const rows = data.cells.map((c) => [c.workDate, data.users.find((u) => u.userId === c.userId)?.userName ?? c.userId, hoursCell(c.minutes), hoursCell(c.billableMinutes)]);
    saveCsv(toCsv(['date', 'user', 'hours', 'billable_hours'], rows), `timesheet-${range.from}-to-${range.to}.csv`);
  };

  return (
    <>
      <PageTitle
        title="Timesheet"
        description={formatDayRange(range)}
        actions={
          <Button variant="light" onClick={exportCsv} disabled={!data}>
            Export CSV
          </Button>
        }
      />
      <Group mb="md" wrap="wrap">
        <SegmentedControl
          value={mode}
          onChange={(value) => {
            const next = value === 'month' ? 'month' : 'week';
            show(rangeAround(next, switchAnchor(mode, range, today())), next);
          }}
          data={[
            { value: 'week', label: 'Week' },
            { value: 'month', label: 'Month' },
          ]}
          aria-label="Range"
        />
        <Group gap={4}>
          <ActionIcon variant="default" size="lg" aria-label={`Previous ${mode}`} onClick={() => show(shiftRange(mode, range.from, -1))}>
            ‹
          </ActionIcon>
          <Button variant="default" onClick={() => show(rangeAround(mode, today()))}>
            This {mode}
          </Button>
          <ActionIcon variant="default" size="lg" aria-label={`Next ${mode}`} onClick={() => show(shiftRange(mode, range.from, 1))}>
            ›
          </ActionIcon>
        </Group>
      </Group>
      {error ? (
        <Alert color="red" title="Could not load the timesheet" mb="md">
          {error.message} <Button size="xs" variant="white" onClick={() => mutate()}>Try again</Button>
        </Alert>
      ) : null}
      {mode === 'week' ? <WeekStates monday={range.from} /> : null}
      <SimpleGrid cols={{ base: 1, xs: 3 }} mb="md" aria-busy={loading}>
        <StatCard label="Total hours" value={data ? hours(data.totals.minutes) : '…'} />
        <StatCard label="Billable hours" value={data ? hours(data.totals.billableMinutes) : '…'} />
        <StatCard label="People" value={data ? data.users.length : '…'} />
      </SimpleGrid>
      <Paper withBorder p="md" mb="md" aria-busy={loading}>
        {data ? (
          <BarChart
            h={220}
            data={days.map((day) => {
              const { minutes = 0, billableMinutes = 0 } = dayTotal.get(day) ?? {};
              return { day: chartLabel(day), billable: Number(hours(billableMinutes)), other: Number(hours(minutes - billableMinutes)) };
            })}
            dataKey="day"
            // A week labels every day, even where recharts would thin the labels out on a phone.
            xAxisProps={mode === 'week' ? { interval: 0 } : undefined}
            type="stacked"
            series={[
              { name: 'billable', label: 'Billable hours', color: 'blue.6' },
              { name: 'other', label: 'Non-billable hours', color: 'gray.5' },
            ]}
            withLegend
            barProps={{ isAnimationActive: animate }}
            data-testid="timesheet-chart"
          />
        ) : (
          <Skeleton height={220} aria-busy />
        )}
      </Paper>
      {data && data.users.length === 0 ? <Text c="dimmed">No time logged in this {mode}.</Text> : null}
      {data && data.users.length > 0 ? (
        // A phone scrolls the table sideways; the scrolling box takes focus so arrow keys can too.
        <Table.ScrollContainer minWidth={600} type="native" tabIndex={0} role="region" aria-label="Hours per person per day, scrolls sideways" className={classes.scroller}>
          <Table striped aria-label="Hours per person per day" withColumnBorders stickyHeader>
            <Table.Thead>
              <Table.Tr>
                <Table.Th className={classes.person}>Person</Table.Th>
                {days.map((day) => (
                  <Table.Th key={day} ta="right">
                    {formatWeekday(day)}
                  </Table.Th>
                ))}
                <Table.Th ta="right">Total</Table.Th>
                <Table.Th ta="right">Billable</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.users.map((user) => (
                <Table.Tr key={user.userId}>
                  <Table.Th scope="row" fw={400} className={classes.person}>
                    {user.userName}
                  </Table.Th>
                  {days.map((day) => {
                    const entry = cell.get(`${user.userId}:${day}`);
                    return (
                      <Table.Td key={day} ta="right" c={entry ? undefined : 'dimmed'}>
                        {entry ? hours(entry.minutes) : '·'}
                      </Table.Td>
                    );
                  })}
                  <Table.Td ta="right" fw={600}>
                    {hours(user.minutes)}
                  </Table.Td>
                  <Table.Td ta="right">{hours(user.billableMinutes)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
            <Table.Tfoot>
              <Table.Tr>
                <Table.Th scope="row" className={classes.person}>
                  Total
                </Table.Th>
                {days.map((day) => {
                  return (
                    <Table.Th key={day} ta="right">
                      {hours(dayTotal.get(day)?.minutes ?? 0)}
                    </Table.Th>
                  );
                })}
                <Table.Th ta="right" data-testid="timesheet-total">
                  {hours(data.totals.minutes)}
                </Table.Th>
                <Table.Th ta="right">{hours(data.totals.billableMinutes)}</Table.Th>
              </Table.Tr>
            </Table.Tfoot>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      {!data && !error ? <Skeleton height={200} aria-busy /> : null}
      <Text size="xs" c="dimmed" mt="sm">
        Hours are decimal ({formatMinutes(90)} = 1.50).
      </Text>
    </>
  );
}
