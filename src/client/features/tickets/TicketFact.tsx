import { Badge } from '@mantine/core';
import type { Ticket } from '../../../shared/types';
import type { RecordOption } from '../../lib/record-options';
import { PRIORITY_COLORS, PRIORITY_LABELS, PRIORITY_OPTIONS, STATUS_COLORS, STATUS_LABELS, STATUS_OPTIONS } from '../../lib/ticket-labels';
import { QuickFieldMenu } from './QuickFieldMenu';
import { QUICK_NOUNS, type QuickField, type TicketChange } from './use-ticket-change';

const UNASSIGNED = { value: '', label: 'Unassigned' };

interface TicketFactProps {
  ticket: Ticket;
  field: QuickField;
  /** Everyone a ticket can name; the assignee's choices are the active ones (and whoever has it now). */
  people: readonly RecordOption[];
  /** Without it the fact is only shown. */
  change?: TicketChange;
}

/** A ticket's status, priority or assignee as the list and the drawer show it, changeable in place. */
export function TicketFact({ ticket, field, people, change }: TicketFactProps) {
  const look =
    field === 'status' ? (
      <Badge color={STATUS_COLORS[ticket.status]} variant="light">
        {STATUS_LABELS[ticket.status]}
      </Badge>
    ) : field === 'priority' ? (
      <Badge color={PRIORITY_COLORS[ticket.priority]} variant="dot">
        {PRIORITY_LABELS[ticket.priority]}
      </Badge>
    ) : (
      (ticket.assigneeName ?? 'Unassigned')
    );
  if (!change) return look;
  const busy = change.pending.has(ticket.id);
  const noun = QUICK_NOUNS[field].toLowerCase();
  if (field === 'status') {
    return (
      <QuickFieldMenu noun={noun} ticketId={ticket.id} value={ticket.status} shown={STATUS_LABELS[ticket.status]} options={STATUS_OPTIONS} busy={busy} onPick={(value) => void change.change(ticket, 'status', STATUS_OPTIONS.find((option) => option.value === value)?.value ?? ticket.status)}>
        {look}
      </QuickFieldMenu>
    );
  }
  if (field === 'priority') {
    return (
      <QuickFieldMenu noun={noun} ticketId={ticket.id} value={ticket.priority} shown={PRIORITY_LABELS[ticket.priority]} options={PRIORITY_OPTIONS} busy={busy} onPick={(value) => void change.change(ticket, 'priority', PRIORITY_OPTIONS.find((option) => option.value === value)?.value ?? ticket.priority)}>
        {look}
      </QuickFieldMenu>
    );
  }
  const chosen = ticket.assigneeId === null ? '' : String(ticket.assigneeId);
  const options = [UNASSIGNED, ...people.filter((person) => person.active || person.value === chosen)];
  return (
    <QuickFieldMenu noun={noun} ticketId={ticket.id} value={chosen} shown={ticket.assigneeName ?? 'Unassigned'} options={options} busy={busy} onPick={(value) => void change.change(ticket, 'assigneeId', value === '' ? null : Number(value))}>
      {look}
    </QuickFieldMenu>
  );
}
