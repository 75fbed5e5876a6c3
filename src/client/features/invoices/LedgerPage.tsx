import { Badge, Button, Divider, Group, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { LINE_STATUSES, SOURCE_NAMES, isClosingLedger, type InvoiceSource, type LineChanges } from '../../../shared/schemas/invoices';
import type { InvoiceLine } from '../../../shared/types';
import { HistorySection } from '../../lib/audit/HistorySection';
import { formatCents, formatMonth } from '../../lib/format';
import type { Mutation } from '../../lib/form/use-mutation';
import { useCan } from '../../lib/permissions';
import { optionalOneOf } from '../../lib/url-state';
import { DataTable, type Column } from '../../lib/ui/DataTable';
import { FoldingFilters } from '../../lib/ui/FoldingFilters';
import { PageTitle } from '../../lib/ui/PageTitle';
import { RecordDrawer } from '../../lib/ui/RecordDrawer';
import { StatCard } from '../../lib/ui/StatCard';
import { useDownload } from '../../lib/use-download';
import { exportLines, updateLine, useLine, useLines } from './api';
import { DeleteLineButton } from './DeleteLineButton';
import { ImportButton } from './ImportButton';
import { useDraftSelection } from './draft-selection';
import { NewLineButton } from './NewLineButton';
import { LINE_FILTER_OPTIONS, LINE_STATUS_COLORS, LINE_STATUS_LABELS, PERIOD_OPTIONS } from './labels';
import { LineEditor } from './LineEditor';
import { MonthInvoice } from './MonthInvoice';
import { useLineParams } from '../../lib/addresses/invoices';
import { RecordState } from '../../lib/ui/RecordState';

const COLUMNS: Column<InvoiceLine>[] = [
  { key: 'period', label: 'Period', render: (l) => formatMonth(l.period) },
  { key: 'description', label: 'Description', render: (l) => <Text size="sm" lineClamp={1}>{l.description}</Text> },
  { key: 'company', label: 'Company', visibleFrom: 'md', render: (l) => l.companyName ?? '—' },
  { key: 'quantity', label: 'Qty', visibleFrom: 'sm', align: 'right', render: (l) => l.quantity.toLocaleString() },
  { key: 'price', label: 'Unit price', visibleFrom: 'md', align: 'right', render: (l) => formatCents(l.unitPriceCents) },
  { key: 'amount', label: 'Amount', align: 'right', render: (l) => <Text size="sm" fw={600}>{formatCents(l.amountCents)}</Text> },
  { key: 'status', label: 'Status', visibleFrom: 'xs', render: (l) => <Badge color={LINE_STATUS_COLORS[l.status]} variant="light">{LINE_STATUS_LABELS[l.status]}</Badge> },
];

/** One contract's invoice lines: filter by period and status, totals, edit a line, export CSV. */
/** What each ledger holds, under its name. */
const DESCRIPTIONS: Record<InvoiceSource, string> = {
  autofi: 'Autofi vehicle tracking billing',
  '3dtracking': '3D Tracking licences and data plans',
  'gifs-sla': 'GIFS service level fees',
  'gifs-azure': 'GIFS Azure consumption',
};

/** One ledger's page; the route names the source. */
export function LedgerPage({ source }: { source: InvoiceSource }) {
  const title = SOURCE_NAMES[source];
  const description = DESCRIPTIONS[source];
  const [{ lineId, page = 1, ...filters }, view] = useLineParams();
  const setParams = view.update;
  const lines = useLines(source, { ...filters, page });
  const line = useLine(lineId);
  const csv = useDownload('Export failed');
  const totals = lines.data?.totals;
  const canEdit = useCan('editInvoiceLines');
  const canImport = useCan('importLines');

  const selection = useDraftSelection(lines.data?.items, () => lines.mutate());

  const showLine = (current: InvoiceLine) => Promise.all([line.mutate(current, { revalidate: false }), lines.mutate()]);

  const save = (edited: InvoiceLine): Mutation<LineChanges, InvoiceLine> => ({
    send: (changes, ifMatch) => updateLine(edited.id, changes, ifMatch),
    success: (updated) => ['Line saved', formatCents(updated.amountCents)],
    failure: 'Line not saved',
    onSuccess: showLine,
  });

  return (
    <>
      <PageTitle
        title={title}
        description={description}
        actions={
          <Group gap="sm">
            {canImport ? <ImportButton source={source} title={title} onImported={() => lines.mutate()} /> : null}
            {canEdit ? <NewLineButton source={source} period={filters.period} onCreated={(created) => Promise.all([lines.mutate(), setParams({ lineId: created.id })])} /> : null}
            <Button variant="light" onClick={() => void csv.start(() => exportLines(source, filters))} loading={csv.busy} disabled={csv.busy}>
              Export CSV
            </Button>
          </Group>
        }
      />
      <FoldingFilters id="ledger-filters" active={[filters.period, filters.status].filter(Boolean).length} cols={{ base: 1, xs: 2 }}>
        <Select label="Period" placeholder="All periods" data={PERIOD_OPTIONS} value={filters.period ?? null} onChange={(period) => view.filter({ period: period ?? undefined })} clearable searchable />
        <Select label="Status" placeholder="Any status" data={LINE_FILTER_OPTIONS} value={filters.status ?? null} onChange={(status) => view.filter({ status: optionalOneOf(LINE_STATUSES, status) })} clearable />
      </FoldingFilters>
      <SimpleGrid cols={{ base: 1, xs: 3 }} mb="md" aria-busy={!totals}>
        <StatCard label="Lines" value={totals ? totals.lines.toLocaleString() : '…'} />
        <StatCard label="Quantity" value={totals ? totals.quantity.toLocaleString() : '…'} />
        <StatCard label="Total" value={totals ? formatCents(totals.amountCents) : '…'} hint={filters.period ? formatMonth(filters.period) : 'All periods'} />
      </SimpleGrid>
      {filters.period && isClosingLedger(source) ? <MonthInvoice ledger={source} period={filters.period} onClosed={() => lines.mutate()} /> : null}
      {canEdit ? selection.toolbar : null}
      <DataTable
        label={`${title} lines`}
        columns={canEdit ? [...COLUMNS, selection.column] : COLUMNS}
        page={lines.data}
        error={lines.error}
        onRetry={() => lines.mutate()}
        onPageChange={view.goTo}
        onOpen={(row) => setParams({ lineId: row.id })}
        selectedId={lineId}
        empty={{ title: 'No invoice lines', description: 'Nothing matches these filters.' }}
      />
      <RecordDrawer opened={lineId !== undefined} onClose={() => setParams({ lineId: undefined })} keys={['lineId']} title={line.data ? line.data.description.split('\n')[0] : 'Invoice line'}>
        <RecordState read={line} noun="Line">
          {(current) => (
            <Stack>
              <LineEditor key={current.updatedAt} line={current} canEdit={canEdit} mutation={save(current)} onReload={(reloaded) => void showLine(reloaded)} />
              {canEdit && current.status === 'draft' ? (
                <DeleteLineButton
                  line={current}
                  onDeleted={() => Promise.all([lines.mutate(), setParams({ lineId: undefined })])}
                  onRefused={() => Promise.all([lines.mutate(), line.mutate()])}
                />
              ) : null}
              <Divider />
              <HistorySection changedAt={current.updatedAt} entity="invoice_line" entityId={current.id} />
            </Stack>
          )}
        </RecordState>
      </RecordDrawer>
    </>
  );
}
