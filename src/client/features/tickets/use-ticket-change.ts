import { useRef, useState } from 'react';
import type { KeyedMutator } from 'swr';
import type { Page, Ticket } from '../../../shared/types';
import { CONFLICT_MESSAGE, isConflict } from '../../lib/api';
import { showBeforeAnswer } from '../../lib/optimistic';
import type { RecordOption } from '../../lib/record-options';
import { notify } from '../../lib/toast/notify';
import { updateTicket } from './api';

/** The facts a ticket's list row and read view change in one click. */
export type QuickField = 'status' | 'priority' | 'assigneeId';
export const QUICK_NOUNS: Record<QuickField, string> = { status: 'Status', priority: 'Priority', assigneeId: 'Assignee' };

interface Read<T> {
  data?: T;
  mutate: KeyedMutator<T>;
}

const withRow = (page: Page<Ticket>, row: Ticket) => ({ ...page, items: page.items.map((item) => (item.id === row.id ? row : item)) });

export interface TicketChange {
  /** Ticket ids whose change is still waiting for its answer: their menus take no second pick. */
  pending: ReadonlySet<number>;
  change: <F extends QuickField>(ticket: Ticket, field: F, value: Ticket[F]) => Promise<void>;
}

/**
 * A ticket's status, priority or assignee changed from the list or the drawer
 * (docs/architecture.md#instant-edits): the list's row and the open ticket show the new value on
 * the next frame; the PATCH carries the version shown as If-Match, as the form's does. A refusal
 * puts the old value back and says why in a toast; a 412 shows the ticket as it now is instead.
 * One change per ticket at a time, so the second never goes with the version the first replaced.
 */
export const useTicketChange = (list: Read<Page<Ticket>>, open: Read<Ticket>, people: readonly RecordOption[]): TicketChange => {
  const running = useRef(new Set<number>());
  const [pending, setPending] = useState<ReadonlySet<number>>(() => new Set());
  const settle = (id: number, busy: boolean) => {
    if (busy) running.current.add(id);
    else running.current.delete(id);
    setPending(new Set(running.current));
  };

  const change = async <F extends QuickField>(ticket: Ticket, field: F, value: Ticket[F]) => {
    if (running.current.has(ticket.id) || ticket[field] === value) return;
    settle(ticket.id, true);
    const made: Ticket = { ...ticket, [field]: value };
    if (field === 'assigneeId') made.assigneeName = people.find((person) => person.value === String(value))?.label ?? null;
    const request = updateTicket(ticket.id, { [field]: value }, ticket.version);
    const isThis = (shown: Ticket) => shown.id === ticket.id;
    const shownInList = showBeforeAnswer(list, request, {
      now: (page) => withRow(page, made),
      answered: withRow,
      conflict: withRow,
    });
    const shownOpen = open.data?.id === ticket.id
      ? showBeforeAnswer(open, request, {
          now: (shown) => (isThis(shown) ? made : shown),
          answered: (shown, result) => (isThis(shown) ? result : shown),
          conflict: (shown, current) => (isThis(shown) ? current : shown),
        })
      : undefined;
    const noun = QUICK_NOUNS[field];
    try {
      const updated = await request;
      notify.success(`${noun} changed`, `#${updated.id} ${updated.title}`);
    } catch (error) {
      notify.error(`${noun} not changed`, isConflict(error) ? CONFLICT_MESSAGE : error instanceof Error ? error.message : String(error));
    } finally {
      await Promise.all([shownInList, shownOpen]);
      settle(ticket.id, false);
    }
    // The list's filter and order may no longer hold the row where it was.
    await list.mutate();
  };

  return { pending, change };
};
