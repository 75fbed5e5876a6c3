import { Button, Divider, Modal, Select, Stack, Switch, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useRef, useState } from 'react';
import { CLOSING_LEDGERS, SOURCE_NAMES, STATEMENT_STATES, type StatementRequest, type StatementStatus, type StatementTarget } from '../../../shared/schemas/invoices';
import type { Statement, StatementDetail } from '../../../shared/types';
import { HistorySection } from '../../lib/audit/HistorySection';
import { formatCents, formatDate, formatMonth } from '../../lib/format';
import { useCan } from '../../lib/permissions';
import { useAction } from '../../lib/form/use-mutation';
import { DataTable, type Column } from '../../lib/ui/DataTable';
import { PageTitle } from '../../lib/ui/PageTitle';
import { RecordDrawer } from '../../lib/ui/RecordDrawer';
import { RecordSelect } from '../../lib/ui/RecordSelect';
import { FoldingFilters } from '../../lib/ui/FoldingFilters';
import { optionalOneOf } from '../../lib/url-state';
import { AgingCards } from './AgingCards';
import { generateStatement, moveStatement, useAging, useStatement, useStatements } from './api';
import { PERIOD_OPTIONS, STATEMENT_STATUS_LABELS } from './labels';
import { StatementBadge } from './StatementBadge';
import { useStatementParams } from '../../lib/addresses/invoices';
import { StatementDocument } from './StatementDocument';
import { PaymentsSection } from './PaymentsSection';
import { StatementView } from './StatementView';
import { TransitionDialog } from './TransitionDialog';
import { RecordState } from '../../lib/ui/RecordState';
import classes from './overdue.module.css';

const COLUMNS: Column<Statement>[] = [
  { key: 'number', label: 'Statement', render: (s) => s.number },
  { key: 'period', label: 'Period', visibleFrom: 'xs', render: (s) => formatMonth(s.period) },
  { key: 'company', label: 'Company', visibleFrom: 'md', render: (s) => s.companyName ?? '—' },
  { key: 'status', label: 'Status', render: (s) => <StatementBadge statement={s} /> },
  { key: 'lines', label: 'Lines', visibleFrom: 'sm', align: 'right', render: (s) => s.lineCount },
  { key: 'issued', label: 'Issued', visibleFrom: 'md', render: (s) => formatDate(s.issuedAt) },
  { key: 'total', label: 'Total', align: 'right', render: (s) => <Text size="sm" fw={600}>{formatCents(s.totalCents)}</Text> },
  { key: 'due', label: 'Due', visibleFrom: 'md', render: (s) => formatDate(s.dueOn) },
  {
    key: 'balance',
    label: 'Balance',
    align: 'right',
    render: (s) => (
      <Text size="sm" className={s.overdue ? classes.overdue : undefined}>
        {formatCents(s.balanceCents)}
        {s.overdue ? ' overdue' : ''}
      </Text>
    ),
  },
];

const STATE_OPTIONS = STATEMENT_STATES.map((value) => ({ value, label: STATEMENT_STATUS_LABELS[value] }));
// The GIFS statements, or the invoices a closed Autofi or 3D Tracking month made (aging counts them all).
const DOCUMENT_OPTIONS = [
  { value: 'gifs', label: 'GIFS statements' },
  ...CLOSING_LEDGERS.map((value) => ({ value, label: `${SOURCE_NAMES[value]} invoices` })),
];

const DONE: Record<StatementTarget, string> = { issued: 'Statement issued', paid: 'Statement marked paid', void: 'Statement voided' };

export function StatementPage() {
  const [{ statementId, page: statementsPage, overdue, state, ledger }, setParams] = useStatementParams();
  const statements = useStatements(statementsPage ?? 1, { overdue, state, ledger });
  const statement = useStatement(statementId);
  const [generating, generateModal] = useDisclosure(false);
  const canBill = useCan('manageStatements');
  const canReverse = useCan('reversePayments');
  const aging = useAging();
  const [period, setPeriod] = useState<string | null>(PERIOD_OPTIONS[1]?.value ?? null);
  const [companyId, setCompanyId] = useState<number | null>(null);
  const [ask, setAsk] = useState<{ target: StatementTarget; opened: boolean }>({ target: 'issued', opened: false });
  // The status on screen when the person asked, until their answer goes out: a live update
  // meanwhile must not turn their "Issue" into a move from wherever the statement now is, and a
  // second click on the answer (a double click outlasting a quick save) sends nothing.
  const askedFrom = useRef<StatementStatus | null>(null);
  const askFor = (target: StatementTarget, from: StatementStatus) => {
    askedFrom.current = from;
    setAsk({ target, opened: true });
  };
  const closeAsk = () => {
    askedFrom.current = null;
    setAsk((a) => ({ ...a, opened: false }));
  };
  const answer = (id: number, target: StatementTarget, reason?: string) => {
    const from = askedFrom.current;
    if (from === null) return;
    askedFrom.current = null;
    void move.run({ id, from, target, reason });
  };

  const generate = useAction<StatementRequest, StatementDetail>({
    send: (request) => generateStatement(request),
    success: (created) => ['Statement generated', `${created.number}: ${formatCents(created.totalCents)}`],
    failure: 'Statement not generated',
    onSuccess: async (created) => {
      generateModal.close();
      setParams({ statementId: created.id });
      await statements.mutate();
    },
  });

  const move = useAction<{ id: number; from: StatementStatus; target: StatementTarget; reason?: string }, StatementDetail>({
    // `from` is the status on screen, so a stale or repeated click is refused (409) rather than taking the next step.
    send: ({ id, from, target, reason }) => moveStatement(id, { status: target, from, reason }),
    success: (updated, { target }) => [DONE[target], `${updated.number} · ${updated.companyName ?? 'no company'} · ${formatCents(updated.totalCents)}`],
    failure: 'Statement not updated',
    onSuccess: async (updated) => {
      closeAsk();
      await refresh(updated);
    },
    // A refused move means the statement changed elsewhere: show it as it now is.
    onFailure: async () => {
      closeAsk();
      await Promise.all([statement.mutate(), statements.mutate()]);
    },
  });
  const busy = generate.busy || move.busy;
  const refresh = (updated: StatementDetail) => Promise.all([statement.mutate(updated, { revalidate: false }), statements.mutate(), aging.mutate()]);

  return (
    <>
      <PageTitle title="GIFS statements" description="Monthly statements from the SLA and Azure lines" actions={canBill ? <Button onClick={generateModal.open}>Generate statement</Button> : undefined} />
      <AgingCards aging={aging.data} />
      <FoldingFilters id="statement-filters" active={[overdue, state, ledger].filter(Boolean).length} cols={{ base: 1, xs: 3 }}>
        <Select
          label="Documents"
          data={DOCUMENT_OPTIONS}
          value={ledger ?? 'gifs'}
          onChange={(value) => setParams({ ledger: optionalOneOf(CLOSING_LEDGERS, value), page: undefined, statementId: undefined })}
          allowDeselect={false}
        />
        <Select
          label="Status"
          placeholder="Any status"
          data={STATE_OPTIONS}
          value={state ?? null}
          onChange={(value) => setParams({ state: optionalOneOf(STATEMENT_STATES, value), page: undefined })}
          clearable
        />
        <Switch
          mt={{ xs: 'xl' }}
          label="Overdue only"
          checked={overdue === true}
          onChange={(event) => setParams({ overdue: event.currentTarget.checked || undefined, page: undefined })}
        />
      </FoldingFilters>
      <DataTable
        label="Statements"
        columns={COLUMNS}
        page={statements.data}
        error={statements.error}
        onRetry={() => statements.mutate()}
        onPageChange={(next) => setParams({ page: next > 1 ? next : undefined })}
        onOpen={(row) => setParams({ statementId: row.id })}
        selectedId={statementId}
        empty={
          overdue
            ? { title: 'Nothing overdue', description: 'Every issued statement is within its payment terms or paid.' }
            : state || ledger
              ? { title: 'Nothing matches', description: 'No statement or invoice matches these filters.' }
              : { title: 'No statements yet', description: 'Generate one for a month with approved SLA or Azure lines.' }
        }
      />
      <Modal opened={generating && canBill} onClose={generateModal.close} title="Generate statement">
        <Stack>
          <Text size="sm">
            Bills every approved GIFS SLA and Azure line of the month that is not on a statement yet. A month that already has a statement gets a supplementary one.
          </Text>
          <Select label="Month" data={PERIOD_OPTIONS} value={period} onChange={setPeriod} allowDeselect={false} searchable />
          <RecordSelect
            label="Company"
            description="Needed only when the month's lines belong to more than one company"
            placeholder="The month's only company"
            records="companies"
            value={companyId}
            onChange={setCompanyId}
            clearable
          />
          <Button onClick={() => period && void generate.run({ period, companyId: companyId ?? undefined })} loading={busy} disabled={busy || !period}>
            Generate
          </Button>
        </Stack>
      </Modal>
      <RecordDrawer opened={statementId !== undefined} onClose={() => setParams({ statementId: undefined })} title={statement.data ? `Statement ${statement.data.number}` : 'Statement'}>
        <RecordState read={statement} noun="Statement">
          {(current) => (
            <Stack>
              <StatementView
                statement={current}
                busy={busy}
                onAsk={canBill ? (target) => askFor(target, current.status) : undefined}
                payments={
                  current.status === 'issued' || current.status === 'paid' ? (
                    <PaymentsSection statement={current} canRecord={canBill} canReverse={canReverse} onChanged={refresh} />
                  ) : undefined
                }
              />
              <Divider />
              <HistorySection changedAt={current.updatedAt} entity="statement" entityId={current.id} />
            </Stack>
          )}
        </RecordState>
      </RecordDrawer>
      {statement.data && statementId !== undefined ? (
        <>
          <TransitionDialog statement={statement.data} target={ask.target} opened={ask.opened} busy={busy} onCancel={closeAsk} onConfirm={(target, reason) => statement.data && answer(statement.data.id, target, reason)} />
          <StatementDocument statement={statement.data} />
        </>
      ) : null}
    </>
  );
}
