import { Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { StatementDetail } from '../../../shared/types';
import { formatCents, formatDate } from '../../lib/format';
import { Facts } from '../../lib/ui/Facts';
import { STATEMENT_STATUS_COLORS, STATEMENT_STATUS_LABELS, periodLabel } from './labels';
import classes from './print.module.css';

interface Props {
  statement: StatementDetail;
  busy: boolean;
  /** Issues it or marks it paid; absent for a role that may not. */
  onAdvance?: (status: 'issued' | 'paid') => void;
}

/** A statement with its lines and total; prints on its own (see print.module.css). */
export function StatementView({ statement, busy, onAdvance }: Props) {
  return (
    <Stack className={classes.printable} data-testid="statement-view">
      <div>
        <Title order={2} size="h3">
          GIFS statement · {periodLabel(statement.period)}
        </Title>
        <Text c="dimmed" size="sm">
          Statement #{statement.id}
          {statement.companyName ? ` for ${statement.companyName}` : ''}
        </Text>
      </div>
      <Facts
        items={[
          ['Status', <Badge color={STATEMENT_STATUS_COLORS[statement.status]} variant="light">{STATEMENT_STATUS_LABELS[statement.status]}</Badge>],
          ['Issued', formatDate(statement.issuedAt)],
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
      <Group className={classes.noPrint}>
        {onAdvance && statement.status === 'open' ? (
          <Button onClick={() => onAdvance('issued')} loading={busy} disabled={busy}>
            Mark issued
          </Button>
        ) : null}
        {onAdvance && statement.status === 'issued' ? (
          <Button color="green" onClick={() => onAdvance('paid')} loading={busy} disabled={busy}>
            Mark paid
          </Button>
        ) : null}
        <Button variant="default" onClick={() => window.print()}>
          Print
        </Button>
      </Group>
    </Stack>
  );
}
