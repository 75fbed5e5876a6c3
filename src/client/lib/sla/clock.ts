import { SLA_DUE_SOON_HOURS, type TicketSla } from '../../../shared/sla';
import { formatMinutes } from '../format';

/**
 * What the ticket clock says, worked out once so the drawer and the list row agree
 * (docs/architecture.md#service-levels). The state comes from the API; only "time left" and
 * "due soon" depend on the reader's clock.
 */
export type ClockTone = 'green' | 'yellow' | 'red' | 'gray';

export interface ClockReading {
  /** Text that carries the meaning, so colour is never the only cue. */
  label: string;
  tone: ClockTone;
  dueSoon: boolean;
}

const MINUTE = 60_000;

/** The due time still ahead: first response until answered, then resolution. */
export const nextDueAt = (sla: TicketSla) => (sla.firstRespondedAt ? sla.resolutionDueAt : sla.firstResponseDueAt);

/** "3 h 20 min" ahead of `now` or "5 min ago" behind it, whole minutes. */
export const relativeTo = (at: string, now: number) => {
  const minutes = Math.round((Date.parse(at) - now) / MINUTE);
  return minutes >= 0 ? `in ${formatMinutes(minutes)}` : `${formatMinutes(-minutes)} ago`;
};

export function readClock(sla: TicketSla, now: number): ClockReading {
  if (sla.state === 'met') return { label: 'Met', tone: 'green', dueSoon: false };
  if (sla.state === 'breached') return { label: 'Breached', tone: 'red', dueSoon: false };
  if (sla.state === 'paused') return { label: 'Paused', tone: 'gray', dueSoon: false };
  const left = Math.round((Date.parse(nextDueAt(sla)) - now) / MINUTE);
  // The API marks a breach on its own minute; between its runs a passed due time reads as one.
  if (left < 0) return { label: 'Breached', tone: 'red', dueSoon: false };
  const dueSoon = left <= SLA_DUE_SOON_HOURS * 60;
  return { label: `${formatMinutes(left)} left`, tone: dueSoon ? 'yellow' : 'green', dueSoon };
}
