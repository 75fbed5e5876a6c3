import { Box, Paper, SimpleGrid, Skeleton, Table, Text } from '@mantine/core';
import { useCallback } from 'react';
import type { SlaReportRow } from '../../../shared/sla';
import { useSlaReportParams } from '../../lib/addresses/reports';
import { formatDayRange, formatMonth } from '../../lib/format';
import { LoadError } from '../../lib/ui/LoadError';
import { PageTitle } from '../../lib/ui/PageTitle';
import { RecordSelect } from '../../lib/ui/RecordSelect';
import { StatCard } from '../../lib/ui/StatCard';
import { useSlaReport } from './api';
import { ReportRangeControls, useReportRange } from './ReportRange';

const percent = (value: number | null) => (value === null ? '—' : `${value.toLocaleString(undefined, { maximumFractionDigits: 1 })}%`);

const cells = (row: Pick<SlaReportRow, 'tickets' | 'met' | 'breached' | 'percentMet'>) => (
  <>
    <Table.Td ta="right">{row.tickets.toLocaleString()}</Table.Td>
    <Table.Td ta="right">{row.met.toLocaleString()}</Table.Td>
    <Table.Td ta="right">{row.breached.toLocaleString()}</Table.Td>
    <Table.Td ta="right">{percent(row.percentMet)}</Table.Td>
  </>
);

/**
 * Service levels kept, per company and the month its tickets were opened (docs/api.md#service-levels):
 * tickets with a clock, met, breached and the share met. The range and company live in the address.
 */
export function SlaReportPage() {
  const [params, setParams] = useSlaReportParams();
  const rangeState = useReportRange(
    params.range,
    useCallback((range: string, options: { replace: boolean }) => setParams({ range }, options), [setParams]),
  );
  const { range } = rangeState;
  const { data, error, mutate } = useSlaReport({ ...range, companyId: params.companyId });
  const loading = !data && !error;

  return (
    <>
      <PageTitle title="Service levels" description={formatDayRange(range)} />
      <ReportRangeControls state={rangeState}>
        <RecordSelect label="Company" records="companies" value={params.companyId ?? null} onChange={(companyId) => setParams({ companyId: companyId ?? undefined })} placeholder="Any" clearable />
      </ReportRangeControls>
      {error ? (
        <Box mb="md">
          <LoadError title="Could not load the report" error={error} onRetry={() => void mutate()} />
        </Box>
      ) : null}
      <SimpleGrid cols={{ base: 2, sm: 4 }} mb="md" aria-busy={loading}>
        <StatCard label="Tickets with a service level" value={data ? data.totals.tickets.toLocaleString() : '…'} />
        <StatCard label="Met" value={data ? data.totals.met.toLocaleString() : '…'} />
        <StatCard label="Breached" value={data ? data.totals.breached.toLocaleString() : '…'} />
        <StatCard label="Met, share of finished and breached" value={data ? percent(data.totals.percentMet) : '…'} />
      </SimpleGrid>
      {loading ? <Skeleton height={160} /> : null}
      {data && data.rows.length === 0 ? <Text c="dimmed">No tickets with a service level were opened in this range.</Text> : null}
      {data && data.rows.length > 0 ? (
        <Paper withBorder>
          {/* At phone width the table scrolls inside its box, which keyboards reach as a named region. */}
          <Table.ScrollContainer minWidth={520} type="native" tabIndex={0} role="region" aria-label="Service levels, scrolls sideways">
            <Table striped aria-label="Service levels per company and month">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Company</Table.Th>
                  <Table.Th scope="col">Month</Table.Th>
                  <Table.Th scope="col" ta="right">Tickets</Table.Th>
                  <Table.Th scope="col" ta="right">Met</Table.Th>
                  <Table.Th scope="col" ta="right">Breached</Table.Th>
                  <Table.Th scope="col" ta="right">% met</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.rows.map((row) => (
                  <Table.Tr key={`${row.companyId ?? 'none'}-${row.month}`}>
                    <Table.Td>{row.companyName ?? 'No company'}</Table.Td>
                    <Table.Td>{formatMonth(row.month)}</Table.Td>
                    {cells(row)}
                  </Table.Tr>
                ))}
              </Table.Tbody>
              <Table.Tfoot>
                <Table.Tr>
                  <Table.Th scope="row" colSpan={2}>
                    Total
                  </Table.Th>
                  {cells(data.totals)}
                </Table.Tr>
              </Table.Tfoot>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      ) : null}
    </>
  );
}
