import { Badge, Button, Center, Divider, Loader, Modal, Select, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import type { Statement } from '../../../shared/types';
import { HistorySection } from '../../lib/audit/HistorySection';
import { formatCents, formatDate } from '../../lib/format';
import { useCan } from '../../lib/permissions';
import { notify } from '../../lib/toast/notify';
import { DataTable, type Column } from '../../lib/ui/DataTable';
import { PageTitle } from '../../lib/ui/PageTitle';
import { RecordDrawer } from '../../lib/ui/RecordDrawer';
import { advanceStatement, generateStatement, useStatement, useStatements } from './api';
import { PERIOD_OPTIONS, STATEMENT_STATUS_COLORS, STATEMENT_STATUS_LABELS, periodLabel } from './labels';
import { useStatementSearch } from './search';
import { StatementView } from './StatementView';

const COLUMNS: Column<Statement>[] = [
  { key: 'period', label: 'Period', render: (s) => periodLabel(s.period) },
  { key: 'status', label: 'Status', render: (s) => <Badge color={STATEMENT_STATUS_COLORS[s.status]} variant="light">{STATEMENT_STATUS_LABELS[s.status]}</Badge> },
  { key: 'lines', label: 'Lines', visibleFrom: 'sm', render: (s) => s.lineCount },
  { key: 'issued', label: 'Issued', visibleFrom: 'md', render: (s) => formatDate(s.issuedAt) },
  { key: 'total', label: 'Total', render: (s) => <Text size="sm" fw={600}>{formatCents(s.totalCents)}</Text> },
];

export function StatementPage() {
  const [{ statementId }, setSearch] = useStatementSearch();
  const [page, setPage] = useState(1);
  const statements = useStatements(page);
  const statement = useStatement(statementId);
  const [generating, generateModal] = useDisclosure(false);
  const [period, setPeriod] = useState<string | null>(PERIOD_OPTIONS[1]?.value ?? null);
  const [busy, setBusy] = useState(false);
  const canBill = useCan('manageStatements');

  const run = async (work: () => Promise<unknown>, failure: string) => {
    setBusy(true);
    try {
      await work();
    } catch (error) {
      notify.error(failure, (error as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const generate = () =>
    run(async () => {
      if (!period) return;
      const created = await generateStatement(period);
      notify.success('Statement generated', `${periodLabel(created.period)}: ${formatCents(created.totalCents)}`);
      generateModal.close();
      setSearch({ statementId: created.id });
      await statements.mutate();
    }, 'Statement not generated');

  const advance = (status: 'issued' | 'paid') =>
    run(async () => {
      if (!statementId) return;
      const updated = await advanceStatement(statementId, status);
      notify.success(status === 'issued' ? 'Statement issued' : 'Statement paid', periodLabel(updated.period));
      await Promise.all([statement.mutate(updated, { revalidate: false }), statements.mutate()]);
    }, 'Statement not updated');

  return (
    <>
      <PageTitle title="GIFS statements" description="Monthly statements from the SLA and Azure lines" actions={canBill ? <Button onClick={generateModal.open}>Generate statement</Button> : undefined} />
      <DataTable
        label="Statements"
        columns={COLUMNS}
        page={statements.data}
        error={statements.error}
        onRetry={() => statements.mutate()}
        onPageChange={setPage}
        onOpen={(row) => setSearch({ statementId: row.id })}
        selectedId={statementId}
        empty={{ title: 'No statements yet', description: 'Generate one for a month with SLA or Azure lines.' }}
      />
      <Modal opened={generating && canBill} onClose={generateModal.close} title="Generate statement">
        <Stack>
          <Text size="sm">Bills every GIFS SLA and Azure line of the month that is not on a statement yet.</Text>
          <Select label="Month" data={PERIOD_OPTIONS} value={period} onChange={setPeriod} allowDeselect={false} searchable />
          <Button onClick={generate} loading={busy} disabled={busy || !period}>
            Generate
          </Button>
        </Stack>
      </Modal>
      <RecordDrawer opened={statementId !== undefined} onClose={() => setSearch({ statementId: undefined })} title={statement.data ? `Statement #${statement.data.id}` : 'Statement'}>
        {statement.error ? <Text c="red">{statement.error.message}</Text> : null}
        {!statement.data && !statement.error ? (
          <Center py="xl">
            <Loader aria-label="Loading statement" />
          </Center>
        ) : null}
        {statement.data ? (
          <Stack>
            <StatementView statement={statement.data} busy={busy} onAdvance={canBill ? advance : undefined} />
            <Divider />
            <HistorySection changedAt={statement.data.updatedAt} entity="statement" entityId={statement.data.id} />
          </Stack>
        ) : null}
      </RecordDrawer>
    </>
  );
}
