import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { VOID_REASON_MAX, VOID_REASON_REQUIRED, type StatementTarget } from '../../../shared/schemas/invoices';
import type { StatementDetail } from '../../../shared/types';
import { formatCents, formatMonth } from '../../lib/format';
import { Facts } from '../../lib/ui/Facts';
import { periodHasEnded } from './labels';
import { UnapprovedWeeks } from './UnapprovedWeeks';

const lineCount = (n: number) => `${n} ${n === 1 ? 'line' : 'lines'}`;

const COPY: Record<StatementTarget, { title: string; confirm: string; color: string }> = {
  issued: { title: 'Issue statement', confirm: 'Issue statement', color: 'blue' },
  paid: { title: 'Mark statement paid', confirm: 'Mark paid', color: 'green' },
  void: { title: 'Void statement', confirm: 'Void statement', color: 'red' },
};

interface Props {
  statement: StatementDetail;
  /** The move asked for; it stays set while the dialog fades out so the text does not vanish first. */
  target: StatementTarget;
  opened: boolean;
  busy: boolean;
  onCancel: () => void;
  onConfirm: (target: StatementTarget, reason?: string) => void;
}

/**
 * The confirmation every statement move goes through, naming the statement, company, period and
 * total. Centred, so its button is never where the drawer's next action appears.
 */
export function TransitionDialog({ statement, target, opened, busy, onCancel, onConfirm }: Props) {
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const copy = COPY[target];
  const month = formatMonth(statement.period);
  const company = statement.companyName ?? 'no company';

  const confirm = () => {
    if (target !== 'void') return onConfirm(target);
    if (!reason.trim()) return setReasonError(VOID_REASON_REQUIRED);
    onConfirm(target, reason.trim());
  };

  return (
    <Modal
      opened={opened}
      onClose={onCancel}
      title={copy.title}
      centered
      onExitTransitionEnd={() => {
        setReason('');
        setReasonError(null);
      }}
    >
      <Stack data-testid="transition-dialog">
        <Text size="sm">
          {target === 'issued' ? `Issue statement ${statement.number} to ${company} for ${month}?` : null}
          {target === 'paid' ? `Record a payment of ${formatCents(statement.balanceCents)} from ${company}, dated today, and mark statement ${statement.number} for ${month} paid?` : null}
          {target === 'void' ? `Void statement ${statement.number} to ${company} for ${month}?` : null}
        </Text>
        <Facts
          items={[
            ['Statement', statement.number],
            ['Company', statement.companyName ?? '—'],
            ['Period', month],
            ['Total', <Text span fw={700} data-testid="transition-total">{formatCents(statement.totalCents)}</Text>],
          ]}
        />
        {target === 'issued' && !periodHasEnded(statement.period) ? (
          <Alert color="yellow" title={`${month} has not ended yet`}>
            Lines added to {month} after this statement is issued will go on a supplementary statement.
          </Alert>
        ) : null}
        {target === 'issued' ? <UnapprovedWeeks period={statement.period} opened={opened} /> : null}
        {target === 'issued' ? <Text size="sm" c="dimmed">Once issued, its {lineCount(statement.lineCount)} are billed and can no longer change.</Text> : null}
        {target === 'void' ? (
          <>
            <Text size="sm" c="dimmed">
              Its {lineCount(statement.lineCount)} return to approved and can be billed again. The statement stays listed as void.
            </Text>
            <Textarea
              label="Reason"
              required
              autosize
              minRows={2}
              maxLength={VOID_REASON_MAX}
              value={reason}
              error={reasonError}
              onChange={(event) => {
                setReason(event.currentTarget.value);
                setReasonError(null);
              }}
              data-autofocus
            />
          </>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button color={copy.color} onClick={confirm} loading={busy} disabled={busy}>
            {copy.confirm}
          </Button>
        </Group>
        </Stack>
    </Modal>
  );
}
