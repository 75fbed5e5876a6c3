import { Alert, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { SOURCE_LABELS, type StatementTarget } from '../../../shared/schemas/invoices';
import type { StatementDetail } from '../../../shared/types';
import { formatCents, formatDate, formatMonth } from '../../lib/format';
import { useToastClearance } from '../../lib/toast/clearance';
import { Facts } from '../../lib/ui/Facts';
import { StatementBadge } from './StatementBadge';


interface Props {
  statement: StatementDetail;
  busy: boolean;
  /** Opens a step's confirmation; absent for a role that may not move statements. */
  onAsk?: (target: StatementTarget) => void;
  /** Payments: absent where they are not shown (an open or void statement holds none). */
  payments?: ReactNode;
}

const ACTIONS = '[data-testid="statement-actions"]';

function PrintButton() {
  return (
    <Button variant="default" onClick={() => window.print()}>
      Print
    </Button>
  );
}

/**
 * The next step of an open or issued statement, each only opening its confirmation. "Issue
 * statement" sits on the left and "Mark paid" on the right, so the next step never appears where
 * the last one was clicked; both are in the top row, above where a centred dialog's button can be.
 */
function StatementActions({ statement, busy, onAsk }: Props) {
  // The toast each step raises ("Statement issued") must not land on the step that follows it.
  const clearance = useToastClearance(ACTIONS);
  if (statement.status === 'open' && onAsk) {
    return (
      <Group justify="space-between" data-testid="statement-actions" ref={clearance}>
        <Button onClick={() => onAsk('issued')} disabled={busy}>
          Issue statement
        </Button>
        <PrintButton />
      </Group>
    );
  }
  return (
    <Group justify="space-between" data-testid="statement-actions" ref={clearance}>
      <PrintButton />
      {statement.status === 'issued' && onAsk ? (
        <Button color="green" onClick={() => onAsk('paid')} disabled={busy}>
          Mark paid
        </Button>
      ) : null}
    </Group>
  );
}

/** Voiding is the exception, so it waits at the end of the statement, away from the next step. */
function VoidSection({ busy, onAsk }: { busy: boolean; onAsk: (target: StatementTarget) => void }) {
  return (
    <Group justify="space-between" wrap="wrap" data-testid="statement-void">
      <Text size="sm" c="dimmed">
        Issued in error? Voiding returns its lines to be billed again.
      </Text>
      <Button color="red" variant="outline" onClick={() => onAsk('void')} disabled={busy}>
        Void statement
      </Button>
    </Group>
  );
}

/** A statement with its lines and total; the printed document is StatementDocument. */
export function StatementView(props: Props) {
  const { statement } = props;
  // A void statement still shows what it billed, struck through.
  const voided = statement.status === 'void';
  return (
    <Stack data-testid="statement-view">
      <div>
        {/* The drawer or dialog around it is titled with the number; this names the month. */}
        <Title order={2} size="h3">
          {formatMonth(statement.period)}
        </Title>
        <Text c="dimmed" size="sm">
          {statement.ledger !== 'gifs' ? `${SOURCE_LABELS[statement.ledger]} invoice` : statement.sequence > 1 ? 'Supplementary GIFS statement' : 'GIFS statement'}
          {statement.companyName ? ` for ${statement.companyName}` : ''}
        </Text>
      </div>
      <StatementActions {...props} />
      {statement.status === 'void' ? (
        <Alert color="red" title="Void">
          Voided {formatDate(statement.voidedAt)}: {statement.voidReason}. The lines it billed are kept below, struck through; the lines themselves went back to
          approved to be billed again.
        </Alert>
      ) : null}
      <Facts
        items={[
          ['Status', <StatementBadge statement={statement} />],
          ['Issued', formatDate(statement.issuedAt)],
          ['Due', formatDate(statement.dueOn)],
          ['Lines', statement.lineCount],
          ...(statement.status === 'issued' || statement.status === 'paid'
            ? ([
                ['Paid', formatCents(statement.paidCents)],
                ['Balance', <Text span fw={700} c={statement.overdue ? 'red' : undefined} data-testid="statement-balance">{formatCents(statement.balanceCents)}{statement.overdue ? ' (overdue)' : ''}</Text>],
              ] as [string, ReactNode][])
            : []),
        ]}
      />
      <Table.ScrollContainer minWidth={0}>
        <Table aria-label="Statement lines" verticalSpacing={4} styles={voided ? { td: { textDecoration: 'line-through' } } : undefined}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Description</Table.Th>
              <Table.Th ta="right">Qty</Table.Th>
              <Table.Th ta="right">Unit price</Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {statement.lines.map((line) => (
              <Table.Tr key={line.id}>
                <Table.Td>
                  {line.description}
                  <Text size="xs" c="dimmed">
                    {SOURCE_LABELS[line.source]}
                    {line.companyName !== statement.companyName ? ` · ${line.companyName ?? 'No company'}` : ''} · {line.reference}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">{line.quantity.toLocaleString()}</Table.Td>
                <Table.Td ta="right">{formatCents(line.unitPriceCents)}</Table.Td>
                <Table.Td ta="right">{formatCents(line.amountCents)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr>
              <Table.Th colSpan={3}>{statement.status === 'void' ? 'Total billed (void)' : 'Total'}</Table.Th>
              <Table.Th ta="right" td={voided ? 'line-through' : undefined} data-testid="statement-total">
                {formatCents(statement.totalCents)}
              </Table.Th>
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      </Table.ScrollContainer>
      {props.payments}
      {statement.status === 'issued' && props.onAsk ? <VoidSection busy={props.busy} onAsk={props.onAsk} /> : null}
    </Stack>
  );
}
