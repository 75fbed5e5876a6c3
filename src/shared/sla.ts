import type { TicketPriority } from './schemas/tickets';
/**
 * Service-level shapes of the provider API (docs/api.md#service-levels): calendars, policies and the
 * clock every ticket answer carries.
 */

/** Monday 1 … Sunday 7, as ISO weekdays. */
export type IsoWeekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

/** One span of working hours on a weekday, local time in the calendar's zone, `HH:MM`. */
export interface CalendarHours {
  day: IsoWeekday;
  from: string;
  to: string;
}

/** A calendar with no hours counts around the clock. */
export interface Calendar {
  id: number;
  name: string;
  /** IANA name, e.g. `Europe/London`. */
  timeZone: string;
  hours: CalendarHours[];
  /** `YYYY-MM-DD`, days off in the calendar's zone. */
  holidays: string[];
  createdAt: string;
  updatedAt: string;
  version: number;
}

export interface SlaPolicy {
  id: number;
  name: string;
  /** A ticket gets the first policy by position whose set fields all match it. */
  position: number;
  companyId: number | null;
  companyName: string | null;
  categoryId: number | null;
  categoryName: string | null;
  priority: TicketPriority | null;
  calendarId: number;
  calendarName: string;
  firstResponseMinutes: number;
  resolutionMinutes: number;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export const SLA_STATES = ['running', 'paused', 'met', 'breached'] as const;
export type SlaState = (typeof SLA_STATES)[number];

/** `sla` on every ticket answer; null when no policy matches. */
export interface TicketSla {
  policyId: number;
  policyName: string;
  firstResponseDueAt: string;
  firstRespondedAt: string | null;
  resolutionDueAt: string;
  pausedSeconds: number;
  state: SlaState;
}

/** The tickets list's `sla` filter. */
export const SLA_FILTERS = ['breached', 'due_soon', 'paused'] as const;
export type SlaFilter = (typeof SLA_FILTERS)[number];

/** Due within this many hours counts as "due soon" (list filter and dashboard). */
export const SLA_DUE_SOON_HOURS = 4;

/** Share of a target used when the warning goes out. */
export const SLA_WARNING_SHARE = 0.8;

/**
 * One row of `GET reports/sla?from&to&companyId`: a company's month, by the month its tickets were
 * opened. `tickets` counts those with a service level; `met` those finished on time; `breached`
 * those past a target, finished or not; the rest are still running.
 */
export interface SlaReportRow {
  companyId: number | null;
  companyName: string | null;
  /** `YYYY-MM`. */
  month: string;
  tickets: number;
  met: number;
  breached: number;
  /** 0–100, one decimal; null with no finished tickets. */
  percentMet: number | null;
}

/** `GET reports/sla`: rows by company name (no company last), then month; totals over them all. */
export interface SlaReport {
  from: string;
  to: string;
  rows: SlaReportRow[];
  totals: { tickets: number; met: number; breached: number; percentMet: number | null };
}
