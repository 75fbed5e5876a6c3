import { Alert, Button, Group, Modal, Paper, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import type { ClosingLedger } from '../../../shared/schemas/invoices';
import type { StatementDetail } from '../../../shared/types';
import { formatCents, formatMonth } from '../../lib/format';
import { useAction } from '../../lib/form/use-mutation';
import { useCan } from '../../lib/permissions';
import { closeMonth, useLineTotals, useMonthInvoices } from './api';
import { PaymentsSection } from './PaymentsSection';
import { StatementBadge } from './StatementBadge';
import { StatementDocument } from './StatementDocument';
import { StatementView } from './StatementView';
import { UnapprovedWeeks } from './UnapprovedWeeks';

interface Props {
  ledger: ClosingLedger;
  period: string;
  /** Refreshes the ledger's lines after a close made them invoiced. */
  onClosed: () => Promise<unknown>;
}

const lines = (n: number, kind = '') => `${n.toLocaleString()} ${kind}${n === 1 ? 'line' : 'lines'}`;

/** The confirmation of a close, saying what it bills and which drafts it leaves in the month. */
function CloseDialog({ ledger, period, opened, busy, onCancel, onConfirm }: Props & { opened: boolean; busy: boolean; onCancel: () => void; onConfirm: () => void }) {
  const label = formatMonth(period);
  // Read when the dialog opens, so the counts are those of the moment the person decides.
  const approved = useLineTotals(ledger, period, 'approved', opened).data?.totals;
  const drafts = useLineTotals(ledger, period, 'draft', opened).data?.totals;
  return (
    <Modal opened={opened} onClose={onCancel} title="Close month" centered>
      <Stack data-testid="close-month-dialog" aria-busy={!approved || !drafts}>
        <Text size="sm">
          Close {label}?{' '}
          {approved ? `Its ${lines(approved.lines, 'approved ')} (${formatCents(approved.amountCents)}) become invoiced, ` : 'Its approved lines become invoiced, '}
          one invoice per company, and can no longer change; lines approved later wait until their company&apos;s invoice is voided.
        </Text>
        {drafts && drafts.lines > 0 ? (
          <Alert color="yellow" title={`${lines(drafts.lines, 'draft ')}, ${formatCents(drafts.amountCents)}, stay in ${label}`} data-testid="close-month-drafts">
            Drafts are not invoiced. Approve them first if they belong on this month&apos;s invoices.
          </Alert>
        ) : null}
        <UnapprovedWeeks period={period} opened={opened} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button loading={busy} disabled={busy} onClick={onConfirm}>
            Close month
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * A month of the Autofi or 3D Tracking ledger: its invoices once closed, one per company (view,
 * print, payments), and the button that closes it while approved lines are waiting.
 */
export function MonthInvoice({ ledger, period, onClosed }: Props) {
  const month = useMonthInvoices(ledger, period);
  const waiting = useLineTotals(ledger, period, 'approved');
  const canBill = useCan('manageStatements');
  const canReverse = useCan('reversePayments');
  const [asking, ask] = useDisclosure(false);
  const [viewingId, setViewingId] = useState<number | null>(null);
  const invoices = month.data?.invoices ?? [];
  const viewing = invoices.find((invoice) => invoice.id === viewingId) ?? null;
  const refresh = () => Promise.all([month.mutate(), waiting.mutate(), onClosed()]);
  const show = (updated: StatementDetail) =>
    Promise.all([month.mutate((current) => current && { invoices: current.invoices.map((i) => (i.id === updated.id ? updated : i)) }, { revalidate: false }), onClosed()]);
  const close = useAction<void, StatementDetail[]>({
    send: async () => (await closeMonth(ledger, period)).invoices,
    success: (made) => ['Month closed', `${made.length} ${made.length === 1 ? 'invoice' : 'invoices'}: ${formatCents(made.reduce((sum, i) => sum + i.totalCents, 0))}`],
    failure: 'Month not closed',
    onSuccess: async () => {
      ask.close();
      await refresh();
    },
    onFailure: async () => {
      ask.close();
      await refresh();
    },
  });
  const label = formatMonth(period);
  const approved = waiting.data?.totals.lines ?? 0;
  const loaded = Boolean(month.data && waiting.data);
  return (
    <Paper withBorder p="md" mb="md" aria-busy={!loaded} data-testid="month-invoice">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Text size="sm">
            {!loaded
              ? 'Loading the month…'
              : invoices.length
                ? `${label} closed: ${invoices.length} ${invoices.length === 1 ? 'invoice' : 'invoices'}${approved ? `; ${lines(approved, 'approved ')} waiting` : ''}.`
                : `${label} is open: its approved lines are not invoiced yet.`}
          </Text>
          {canBill && loaded && (approved > 0 || !invoices.length) ? <Button onClick={ask.open}>Close month</Button> : null}
        </Group>
        {invoices.map((invoice) => (
          <Group key={invoice.id} justify="space-between" wrap="wrap" data-testid="month-invoice-row">
            <Stack gap={2}>
              <Text fw={700}>
                Invoice {invoice.number} <StatementBadge statement={invoice} />
              </Text>
              <Text size="sm" c="dimmed">
                {invoice.companyName ?? 'No company'} · {lines(invoice.lineCount)} · {formatCents(invoice.totalCents)} · balance {formatCents(invoice.balanceCents)}
              </Text>
            </Stack>
            <Button variant="light" onClick={() => setViewingId(invoice.id)} aria-label={`View invoice ${invoice.number}`}>
              View invoice
            </Button>
          </Group>
        ))}
      </Stack>
      <CloseDialog ledger={ledger} period={period} onClosed={onClosed} opened={asking} busy={close.busy} onCancel={ask.close} onConfirm={() => void close.run()} />
      {viewing ? (
        <Modal opened onClose={() => setViewingId(null)} title={`Invoice ${viewing.number}`} size="lg">
          <StatementView
            statement={viewing}
            busy={close.busy}
            payments={
              viewing.status === 'issued' || viewing.status === 'paid' ? (
                <PaymentsSection statement={viewing} canRecord={canBill} canReverse={canReverse} onChanged={show} />
              ) : undefined
            }
          />
        </Modal>
      ) : null}
      {viewing ? <StatementDocument statement={viewing} /> : null}
    </Paper>
  );
}
