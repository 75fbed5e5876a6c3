/** How tickets' statuses and priorities read and look, wherever a ticket is shown (tickets, dashboard, reports). */
import { TICKET_PRIORITIES, TICKET_STATUSES, type TicketPriority, type TicketStatus } from '../../shared/schemas/tickets';
import { SLA_DUE_SOON_HOURS, type SlaFilter } from '../../shared/sla';

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

/** The tickets list's service-level filter (docs/api.md#service-levels). */
export const SLA_FILTER_LABELS: Record<SlaFilter, string> = { breached: 'Breached', due_soon: `Due within ${SLA_DUE_SOON_HOURS} hours`, paused: 'Paused' };
export const SLA_FILTER_OPTIONS = (Object.keys(SLA_FILTER_LABELS) as SlaFilter[]).map((value) => ({ value, label: SLA_FILTER_LABELS[value] }));
