import { NOW_SQL } from '../sql';

/**
 * The service-level clock in SQL (docs/architecture.md#service-levels): the state every ticket
 * answer, list filter and count reads, and the derived columns each write keeps. One definition,
 * so a list filtered by `breached` and the drawer's word for a ticket always agree.
 */

/** Sorts after every ISO time: stands for "none" inside min(), which answers NULL for any NULL. */
const NEVER = "'9'";

/**
 * Where the clock reads "now": while it stands still (on hold, resolved, closed), the moment it
 * stopped. A first response made while it stood still counts at that moment.
 */
const respondedBy = (t: string) => `min(coalesce(${t}.sla_first_responded_at, ${NEVER}), coalesce(${t}.sla_paused_at, ${NEVER}), ${NOW_SQL})`;
const stoppedBy = (t: string) => `coalesce(${t}.sla_paused_at, ${NOW_SQL})`;

/** Past a target: the first response came (or has not come) after its due time, or the resolution. */
export const slaBreachedSql = (t = 't') =>
  `(${t}.sla_policy_id IS NOT NULL AND (${t}.sla_first_response_due_at < ${respondedBy(t)} OR ${t}.sla_resolution_due_at < ${stoppedBy(t)}))`;

/** `running`, `paused`, `met` or `breached`; NULL without a policy. */
export const slaStateSql = (t = 't') => `CASE WHEN ${t}.sla_policy_id IS NULL THEN NULL
    WHEN ${slaBreachedSql(t)} THEN 'breached'
    WHEN ${t}.status IN ('resolved', 'closed') THEN 'met'
    WHEN ${t}.status = 'on_hold' THEN 'paused'
    ELSE 'running' END`;

/** Running and due within `hours`, not yet past it (then it is breached). */
export const slaDueSoonSql = (t: string, hours: number) =>
  `(${t}.sla_policy_id IS NOT NULL AND ${t}.sla_due_at >= ${NOW_SQL} AND ${t}.sla_due_at <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+${Math.trunc(hours)} hours'))`;

const unsent = (bit: number, at: string, firstResponse = false) =>
  `CASE WHEN ${firstResponse ? 'sla_first_responded_at IS NULL AND ' : ''}sla_alerts & ${bit} = 0 THEN ${at} ELSE ${NEVER} END`;

/**
 * The columns derived from the clock, recomputed from the row as it now stands at the end of any
 * batch that changed the clock: the next due time while running (the list's sort, the "due soon"
 * count) and the next warning or breach not yet sent (the minute trigger's index).
 */
export const REFRESH_CLOCK_SQL = `UPDATE tickets SET
    sla_due_at = CASE WHEN sla_policy_id IS NULL OR sla_paused_at IS NOT NULL THEN NULL
      WHEN sla_first_responded_at IS NULL THEN min(sla_first_response_due_at, sla_resolution_due_at)
      ELSE sla_resolution_due_at END,
    sla_alert_at = CASE WHEN sla_policy_id IS NULL OR sla_paused_at IS NOT NULL THEN NULL
      ELSE nullif(min(${unsent(1, 'sla_first_response_warn_at', true)}, ${unsent(2, 'sla_first_response_due_at', true)},
        ${unsent(4, 'sla_resolution_warn_at')}, ${unsent(8, 'sla_resolution_due_at')}), ${NEVER}) END
  WHERE`;

/** `REFRESH_CLOCK_SQL` for ticket `id`; a statement for the write's batch. */
export const refreshClock = (db: D1Database, id: number) => db.prepare(`${REFRESH_CLOCK_SQL} id = ?1`).bind(id);

/** Right after a ticket's INSERT, before any other INSERT of the batch: the row just inserted. */
export const refreshInsertedClock = (db: D1Database) => db.prepare(`${REFRESH_CLOCK_SQL} id = last_insert_rowid()`);

/**
 * A comment by someone other than the reporter is the ticket's first response, if it has none;
 * `refreshClock` after it in the batch drops the first-response alerts from what is due.
 */
export const recordFirstResponse = (db: D1Database, ticketId: number, actorId: number) =>
  db
    .prepare(`UPDATE tickets SET sla_first_responded_at = ${NOW_SQL} WHERE id = ?1 AND sla_first_responded_at IS NULL AND reporter_id IS NOT ?2`)
    .bind(ticketId, actorId);

/** The clock as a JSON object for SQL-built answers (webhook bodies); NULL without a policy. */
export const slaJsonSql = (t = 't') => `CASE WHEN ${t}.sla_policy_id IS NULL THEN NULL ELSE json_object(
    'policyId', ${t}.sla_policy_id, 'policyName', (SELECT name FROM sla_policies WHERE id = ${t}.sla_policy_id),
    'firstResponseDueAt', ${t}.sla_first_response_due_at, 'firstRespondedAt', ${t}.sla_first_responded_at,
    'resolutionDueAt', ${t}.sla_resolution_due_at, 'pausedSeconds', ${t}.sla_paused_seconds, 'state', ${slaStateSql(t)}) END`;
