import { Alert, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { StatementTarget } from '../../../shared/schemas/invoices';
import type { StatementDetail } from '../../../shared/types';
import { formatCents, formatDate } from '../../lib/format';
import { Facts } from '../../lib/ui/Facts';
import { STATEMENT_STATUS_COLORS, STATEMENT_STATUS_LABELS, periodLabel } from './labels';

interface Props {
  statement: StatementDetail;
  busy: boolean;
  onAsk: (target: StatementTarget) => void;
}

const printButton = (
  <Button key="print" variant="default" onClick={() => window.print()}>
    Print
  </Button>
);

/**
 * The moves a statement can make next, each only opening its confirmation. "Issue statement" is
 * first and "Print" takes its place once issued, so "Mark paid" never appears where "Issue
 * statement" was; the dialogs are centred, away from this row at the top.
 */
function StatementActions({ statement, busy, onAsk }: Props) {
  const ask = (target: StatementTarget, label: string, color?: string) => (
    <Button key={target} color={color} variant={target === 'void' ? 'outline' : 'filled'} onClick={() => onAsk(target)} disabled={busy}>
      {label}
    </Button>
  );
  const buttons =
    statement.status === 'open'
      ? [ask('issued', 'Issue statement'), printButton]
      : statement.status === 'issued'
        ? [printButton, ask('paid', 'Mark paid', 'green'), ask('void', 'Void statement', 'red')]
        : [printButton];
  return <Group data-testid="statement-actions">{buttons}</Group>;
}

/** A statement with its lines and total; the printed document is StatementDocument. */
export function StatementView(props: Props) {
  const { statement } = props;
  return (
    <Stack data-testid="statement-view">
      <div>
        <Title order={2} size="h3">
          {statement.number} · {periodLabel(statement.period)}
        </Title>
        <Text c="dimmed" size="sm">
          {statement.sequence > 1 ? 'Supplementary GIFS statement' : 'GIFS statement'}
          {statement.companyName ? ` for ${statement.companyName}` : ''}
        </Text>
      </div>
      <StatementActions {...props} />
      {statement.status === 'void' ? (
        <Alert color="red" title="Void">
          Voided {formatDate(statement.voidedAt)}: {statement.voidReason}. Its lines went back to approved to be billed again.
        </Alert>
      ) : null}
      <Facts
        items={[
          ['Status', <Badge color={STATEMENT_STATUS_COLORS[statement.status]} variant="light">{STATEMENT_STATUS_LABELS[statement.status]}</Badge>],
          ['Issued', formatDate(statement.issuedAt)],
          ['Due', statement.dueOn ? formatDate(`${statement.dueOn}T00:00:00`) : '—'],
          ['Lines', statement.lineCount],
        ]}
      />
      <Table.ScrollContainer minWidth={0}>
        <Table aria-label="Statement lines" verticalSpacing={4}>
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
                    {line.source === 'gifs-sla' ? 'SLA' : 'Azure'} · {line.reference}
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
              <Table.Th colSpan={3}>Total</Table.Th>
              <Table.Th ta="right" data-testid="statement-total">
                {formatCents(statement.totalCents)}
              </Table.Th>
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
