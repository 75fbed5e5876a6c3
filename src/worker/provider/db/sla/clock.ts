import { addBusinessMinutes, businessSecondsBetween, NoBusinessTimeError, type BusinessCalendar } from '../../../../shared/business-time';
import { SLA_WARNING_SHARE, type CalendarHours } from '../../../../shared/sla';

/**
 * The service-level clock of one ticket, decided in JavaScript (business time needs the calendar's
 * zone rules) by the write that changes the ticket and stored in its row
 * (docs/architecture.md#service-levels). Every due time counts from when the clock started plus
 * the business time it stood still, so a pause moves them all by exactly that time.
 */

/** A policy with its calendar, as the write that decides a ticket's clock reads it. */
export interface PolicyRule {
  id: number;
  companyId: number | null;
  categoryId: number | null;
  priority: string | null;
  calendar: BusinessCalendar;
  firstResponseMinutes: number;
  resolutionMinutes: number;
}

/** The columns a ticket write sets; the first response and the derived ones are kept in SQL. */
export interface SlaColumns {
  sla_policy_id: number | null;
  sla_started_at: string | null;
  sla_first_response_due_at: string | null;
  sla_resolution_due_at: string | null;
  sla_first_response_warn_at: string | null;
  sla_resolution_warn_at: string | null;
  sla_paused_seconds: number;
  sla_paused_at: string | null;
  sla_alerts: number;
}

/** What a ticket holds that decides its clock. */
export interface ClockFields {
  status: string;
  priority: string;
  company_id: number | null;
  category_id: number | null;
}

export type ClockBefore = SlaColumns & ClockFields & { created_at: string };

/** Statuses the clock stands still in: on hold pauses it, resolved and closed stop it. */
const STANDING = new Set(['on_hold', 'resolved', 'closed']);

export const NO_CLOCK: SlaColumns = {
  sla_policy_id: null,
  sla_started_at: null,
  sla_first_response_due_at: null,
  sla_resolution_due_at: null,
  sla_first_response_warn_at: null,
  sla_resolution_warn_at: null,
  sla_paused_seconds: 0,
  sla_paused_at: null,
  sla_alerts: 0,
};

/** The first policy by position whose set fields all match the ticket. */
export const matchingPolicy = (policies: readonly PolicyRule[], ticket: ClockFields) =>
  policies.find(
    (policy) =>
      (policy.companyId === null || policy.companyId === ticket.company_id) &&
      (policy.categoryId === null || policy.categoryId === ticket.category_id) &&
      (policy.priority === null || policy.priority === ticket.priority),
  ) ?? null;

const dueTimes = (policy: PolicyRule, startedAt: string, pausedSeconds: number) => {
  const start = new Date(startedAt);
  const at = (minutes: number) => addBusinessMinutes(policy.calendar, start, minutes + pausedSeconds / 60).toISOString();
  return {
    sla_first_response_due_at: at(policy.firstResponseMinutes),
    sla_resolution_due_at: at(policy.resolutionMinutes),
    sla_first_response_warn_at: at(policy.firstResponseMinutes * SLA_WARNING_SHARE),
    sla_resolution_warn_at: at(policy.resolutionMinutes * SLA_WARNING_SHARE),
  };
};

/**
 * The clock after a write: `before` is the row the write is guarded on (null for a new ticket),
 * `after` its fields once written. The policy is decided again from the fields; a clock kept under
 * the same policy keeps its due times and what was sent, unless it starts again after standing
 * still. A calendar with no working time left gives no clock rather than a failed write.
 */
export const decideClock = (before: ClockBefore | null, after: ClockFields, policies: readonly PolicyRule[], now: Date): SlaColumns => {
  const policy = matchingPolicy(policies, after);
  if (!policy) return NO_CLOCK;
  const nowIso = now.toISOString();
  const standing = STANDING.has(after.status);
  const kept = before?.sla_policy_id === policy.id ? before : null;
  const startedAt = before?.sla_started_at ?? before?.created_at ?? nowIso;
  let pausedSeconds = before?.sla_policy_id ? before.sla_paused_seconds : 0;
  let pausedAt = before?.sla_policy_id ? before.sla_paused_at : null;
  if (!before?.sla_policy_id) pausedAt = standing ? nowIso : null;
  else if (pausedAt !== null && !standing) {
    pausedSeconds += businessSecondsBetween(policy.calendar, new Date(pausedAt), now);
    pausedAt = null;
  } else if (pausedAt === null && standing) pausedAt = nowIso;
  const resumed = kept !== null && kept.sla_paused_at !== null && pausedAt === null;
  try {
    const due =
      kept && !resumed
        ? {
            sla_first_response_due_at: kept.sla_first_response_due_at,
            sla_resolution_due_at: kept.sla_resolution_due_at,
            sla_first_response_warn_at: kept.sla_first_response_warn_at,
            sla_resolution_warn_at: kept.sla_resolution_warn_at,
          }
        : dueTimes(policy, startedAt, pausedSeconds);
    return { sla_policy_id: policy.id, sla_started_at: startedAt, ...due, sla_paused_seconds: pausedSeconds, sla_paused_at: pausedAt, sla_alerts: kept?.sla_alerts ?? 0 };
  } catch (error) {
    if (!(error instanceof NoBusinessTimeError)) throw error;
    console.warn(`service level ${policy.id}: ${error.message}; the ticket gets no clock`);
    return NO_CLOCK;
  }
};

interface PolicyRow {
  id: number;
  company_id: number | null;
  category_id: number | null;
  priority: string | null;
  first_response_minutes: number;
  resolution_minutes: number;
  time_zone: string;
  hours: string;
  holidays: string;
}

/** Every policy with its calendar, in the order they are tried. */
export const POLICY_RULES_SQL = `SELECT p.id, p.company_id, p.category_id, p.priority, p.first_response_minutes, p.resolution_minutes,
    c.time_zone, c.hours, c.holidays
  FROM sla_policies p JOIN calendars c ON c.id = p.calendar_id ORDER BY p.position, p.id`;

export const toPolicyRule = (row: PolicyRow): PolicyRule => ({
  id: row.id,
  companyId: row.company_id,
  categoryId: row.category_id,
  priority: row.priority,
  calendar: { timeZone: row.time_zone, hours: JSON.parse(row.hours) as CalendarHours[], holidays: JSON.parse(row.holidays) as string[] },
  firstResponseMinutes: row.first_response_minutes,
  resolutionMinutes: row.resolution_minutes,
});

export const policyRulesOf = (result: D1Result<PolicyRow>) => result.results.map(toPolicyRule);
export type { PolicyRow };
