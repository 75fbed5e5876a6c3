/** How tickets' statuses and priorities read and look, wherever a ticket is shown (tickets, dashboard, reports). */
import { TICKET_PRIORITIES, TICKET_STATUSES, type TicketPriority, type TicketStatus } from '../../shared/schemas/tickets';

export const STATUS_LABELS: Record<TicketStatus, string> = {
  open: 'Open',
  in_progress: 'In progress',
  on_hold: 'On hold',
  resolved: 'Resolved',
  closed: 'Closed',
};

export const STATUS_COLORS: Record<TicketStatus, string> = {
  open: 'blue',
  in_progress: 'violet',
  on_hold: 'yellow',
  resolved: 'green',
  closed: 'gray',
};

export const PRIORITY_LABELS: Record<TicketPriority, string> = { low: 'Low', normal: 'Normal', high: 'High', urgent: 'Urgent' };
export const PRIORITY_COLORS: Record<TicketPriority, string> = { low: 'gray', normal: 'blue', high: 'orange', urgent: 'red' };

export const STATUS_OPTIONS = TICKET_STATUSES.map((value) => ({ value, label: STATUS_LABELS[value] }));
export const PRIORITY_OPTIONS = TICKET_PRIORITIES.map((value) => ({ value, label: PRIORITY_LABELS[value] }));
