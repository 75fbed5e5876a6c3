import { Badge, Button, Group, Modal, Paper, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ClosingLedger } from '../../../shared/schemas/invoices';
import type { StatementDetail } from '../../../shared/types';
import { formatCents, formatMonth } from '../../lib/format';
import { useAction } from '../../lib/form/use-mutation';
import { useCan } from '../../lib/permissions';
import { closeMonth, useMonthInvoice } from './api';
import { STATEMENT_STATUS_COLORS, STATEMENT_STATUS_LABELS } from './labels';
import { PaymentsSection } from './PaymentsSection';
import { StatementDocument } from './StatementDocument';
import { StatementView } from './StatementView';

interface Props {
  ledger: ClosingLedger;
  period: string;
  /** Refreshes the ledger's lines after a close made them invoiced. */
  onClosed: () => Promise<unknown>;
}

/**
 * A month of the Autofi or 3D Tracking ledger: its invoice once closed (view, print, payments),
 * or the button that closes it into one.
 */
export function MonthInvoice({ ledger, period, onClosed }: Props) {
  const month = useMonthInvoice(ledger, period);
  const canBill = useCan('manageStatements');
  const canReverse = useCan('reversePayments');
  const [asking, ask] = useDisclosure(false);
  const [viewing, view] = useDisclosure(false);
  const invoice = month.data?.invoice ?? null;
  const show = (updated: StatementDetail) => Promise.all([month.mutate({ invoice: updated }, { revalidate: false }), onClosed()]);
  const close = useAction<void, StatementDetail>({
    send: () => closeMonth(ledger, period),
    success: (closed) => ['Month closed', `${closed.number}: ${formatCents(closed.totalCents)}`],
    failure: 'Month not closed',
    onSuccess: async (closed) => {
      ask.close();
      await show(closed);
    },
    onFailure: async () => {
      ask.close();
      await month.mutate();
    },
  });
  const label = formatMonth(period);
  return (
    <Paper withBorder p="md" mb="md" aria-busy={!month.data} data-testid="month-invoice">
      {invoice ? (
        <Group justify="space-between" wrap="wrap">
          <Stack gap={2}>
            <Text fw={700}>
              Invoice {invoice.number}{' '}
              <Badge color={STATEMENT_STATUS_COLORS[invoice.status]} variant="light">
                {STATEMENT_STATUS_LABELS[invoice.status]}
              </Badge>
            </Text>
            <Text size="sm" c="dimmed">
              {label} closed · {invoice.lineCount} lines · {formatCents(invoice.totalCents)} · balance {formatCents(invoice.balanceCents)}
            </Text>
          </Stack>
          <Button variant="light" onClick={view.open}>
            View invoice
          </Button>
        </Group>
      ) : (
        <Group justify="space-between" wrap="wrap">
          <Text size="sm">{month.data ? `${label} is open: its approved lines are not invoiced yet.` : 'Loading the month…'}</Text>
          {canBill && month.data ? <Button onClick={ask.open}>Close month</Button> : null}
        </Group>
      )}
      <Modal opened={asking} onClose={ask.close} title="Close month" centered>
        <Stack>
          <Text size="sm">
            Close {label}? Its approved lines become invoiced under one invoice and can no longer change; lines approved later wait for the invoice to be voided.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={ask.close}>
              Cancel
            </Button>
            <Button loading={close.busy} onClick={() => void close.run()}>
              Close month
            </Button>
          </Group>
        </Stack>
      </Modal>
      {invoice ? (
        <Modal opened={viewing} onClose={view.close} title={`Invoice ${invoice.number}`} size="lg">
          <StatementView
            statement={invoice}
            busy={close.busy}
            payments={
              invoice.status === 'issued' || invoice.status === 'paid' ? (
                <PaymentsSection statement={invoice} canRecord={canBill} canReverse={canReverse} onChanged={show} />
              ) : undefined
            }
          />
        </Modal>
      ) : null}
      {invoice && viewing ? <StatementDocument statement={invoice} /> : null}
    </Paper>
  );
}
