import { Button, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { PAYMENT_METHODS, paymentSchema, type PaymentPayload } from '../../../shared/schemas/payments';
import type { Payment, StatementDetail } from '../../../shared/types';
import { formatCents, formatDate } from '../../lib/format';
import { ChoiceField, DateField, MoneyField, TextField } from '../../lib/form/fields';
import { MutationForm } from '../../lib/form/MutationForm';
import { SubmitButton } from '../../lib/form/SubmitButton';
import { useAction } from '../../lib/form/use-mutation';
import { validateWith } from '../../lib/form/validate';
import { today } from '../../lib/today';
import { recordPayment, reversePayment } from './api';

const validate = validateWith(paymentSchema);

export const PAYMENT_METHOD_LABELS: Record<PaymentPayload['method'], string> = { bank: 'Bank transfer', card: 'Card', cash: 'Cash', other: 'Other' };
const METHOD_OPTIONS = PAYMENT_METHODS.map((value) => ({ value, label: PAYMENT_METHOD_LABELS[value] }));

interface Props {
  statement: StatementDetail;
  /** Whether the role may record payments (billing, admin) and reverse them (admin). */
  canRecord: boolean;
  canReverse: boolean;
  onChanged: (updated: StatementDetail) => Promise<unknown>;
}

/** The payments received against an issued or paid statement, with recording and reversal. */
export function PaymentsSection({ statement, canRecord, canReverse, onChanged }: Props) {
  const [recording, recordModal] = useDisclosure(false);
  const [reversing, setReversing] = useState<Payment | null>(null);
  const reverse = useAction<Payment, StatementDetail>({
    send: (payment) => reversePayment(statement.id, payment.id),
    success: (updated, payment) => ['Payment reversed', `${formatCents(payment.amountCents)} · balance ${formatCents(updated.balanceCents)}`],
    failure: 'Payment not reversed',
    onSuccess: async (updated) => {
      setReversing(null);
      await onChanged(updated);
    },
  });
  const mayRecord = canRecord && statement.status === 'issued';
  return (
    <Stack gap="xs" data-testid="statement-payments">
      <Group justify="space-between">
        <Title order={3} size="h5">
          Payments
        </Title>
        {mayRecord ? (
          <Button variant="light" onClick={recordModal.open}>
            Record payment
          </Button>
        ) : null}
      </Group>
      {statement.payments.length ? (
        <Table.ScrollContainer minWidth={0}>
          <Table aria-label="Payments" verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Paid on</Table.Th>
                <Table.Th>Method</Table.Th>
                <Table.Th ta="right">Amount</Table.Th>
                {canReverse ? <Table.Th>Action</Table.Th> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {statement.payments.map((payment) => (
                <Table.Tr key={payment.id}>
                  <Table.Td>{formatDate(payment.paidOn)}</Table.Td>
                  <Table.Td>
                    {PAYMENT_METHOD_LABELS[payment.method]}
                    {payment.reference ? (
                      <Text size="xs" c="dimmed">
                        {payment.reference}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td ta="right">{formatCents(payment.amountCents)}</Table.Td>
                  {canReverse ? (
                    <Table.Td>
                      <Button size="compact-sm" variant="subtle" color="red" onClick={() => setReversing(payment)} aria-label={`Reverse payment of ${formatCents(payment.amountCents)}`}>
                        Reverse
                      </Button>
                    </Table.Td>
                  ) : null}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Text size="sm" c="dimmed">
          No payments recorded.
        </Text>
      )}
      <Modal opened={recording && mayRecord} onClose={recordModal.close} title="Record payment" centered>
        <MutationForm<PaymentPayload, StatementDetail>
          mutation={{
            send: (values) => recordPayment(statement.id, values),
            success: (updated, values) => [
              updated.status === 'paid' ? 'Payment recorded; statement paid' : 'Payment recorded',
              `${formatCents(values.amountCents)} · balance ${formatCents(updated.balanceCents)}`,
            ],
            failure: 'Payment not recorded',
            onSuccess: async (updated) => {
              recordModal.close();
              await onChanged(updated);
            },
          }}
          validate={validate}
          initialValues={{ paidOn: today(), amountCents: statement.balanceCents, method: 'bank', reference: '' }}
        >
          {({ submitting }) => (
            <Stack>
              <Text size="sm">
                {statement.number}: balance {formatCents(statement.balanceCents)} of {formatCents(statement.totalCents)}.
              </Text>
              <DateField name="paidOn" label="Paid on" />
              <MoneyField name="amountCents" label="Amount" />
              <ChoiceField name="method" label="Method" data={METHOD_OPTIONS} />
              <TextField name="reference" label="Reference" />
              <SubmitButton label="Record payment" submitting={submitting} />
            </Stack>
          )}
        </MutationForm>
      </Modal>
      <Modal opened={reversing !== null} onClose={() => setReversing(null)} title="Reverse payment" centered>
        <Stack>
          <Text size="sm">
            Reverse the payment of {reversing ? formatCents(reversing.amountCents) : ''} received {reversing ? formatDate(reversing.paidOn) : ''}? The statement&apos;s balance grows by that amount.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setReversing(null)}>
              Cancel
            </Button>
            <Button color="red" loading={reverse.busy} onClick={() => reversing && void reverse.run(reversing)}>
              Reverse payment
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
