import { addDays, DAY_MS, utcDay, weekStart } from '../../../shared/dates';
import type { DashboardSummary } from '../../../shared/types';
import { bucketsOf, countsOf, openedAndResolved } from './report-buckets';
import { TICKET_SELECT, rowsOf, toTicket, type TicketRow } from './rows';
import { OPEN_SQL, overdueSql } from './tickets';
import { SLA_DUE_SOON_HOURS } from '../../../shared/sla';
import { slaBreachedSql, slaDueSoonSql } from './sla/clock-sql';

interface Figures {
  open_tickets: number;
  my_open: number;
  overdue: number;
  resolved_7: number;
  minutes_week: number;
  unbilled: number;
  sla_breached: number;
  sla_due_soon: number;
}

const DAYS_CHARTED = 30;

/**
 * The dashboard's figures in one batch: one round trip, one consistent read. `today` is the
 * asking person's (their calendar), else the UTC day; overdue and this week count from it.
 */
export const dashboardSummary = async (db: D1Database, userId: number, today?: string, now = new Date()): Promise<DashboardSummary> => {
  today ??= utcDay(now);
  const since = addDays(today, -(DAYS_CHARTED - 1));
  const weekAgo = new Date(now.getTime() - 7 * DAY_MS).toISOString();
  const [figures, recent, series] = await db.batch([
    db
      .prepare(
        `SELECT
           (SELECT count(*) FROM tickets t WHERE ${OPEN_SQL}) AS open_tickets,
           (SELECT count(*) FROM tickets t WHERE ${OPEN_SQL} AND t.assignee_id = ?1) AS my_open,
           (SELECT count(*) FROM tickets t WHERE ${overdueSql('?2')}) AS overdue,
           (SELECT count(*) FROM tickets WHERE resolved_at >= ?3) AS resolved_7,
           (SELECT coalesce(sum(minutes), 0) FROM time_entries WHERE work_date >= ?4) AS minutes_week,
           (SELECT coalesce(sum(amount_cents), 0) FROM invoice_lines WHERE status != 'invoiced') AS unbilled,
           (SELECT count(*) FROM tickets t WHERE ${OPEN_SQL} AND ${slaBreachedSql('t')}) AS sla_breached,
           (SELECT count(*) FROM tickets t WHERE ${slaDueSoonSql('t', SLA_DUE_SOON_HOURS)}) AS sla_due_soon`,
      )
      .bind(userId, today, weekAgo, weekStart(today)),
    db.prepare(`${TICKET_SELECT} ORDER BY t.created_at DESC, t.id DESC LIMIT 8`),
    openedAndResolved(db, bucketsOf(since, today, 'day')),
  ]);
  // One row of sub-query counts, always present.
  const [f] = rowsOf<Figures>(figures);
  return {
    openTickets: f?.open_tickets ?? 0,
    myOpenTickets: f?.my_open ?? 0,
    overdue: f?.overdue ?? 0,
    resolvedLast7Days: f?.resolved_7 ?? 0,
    minutesThisWeek: f?.minutes_week ?? 0,
    unbilledCents: f?.unbilled ?? 0,
    slaBreached: f?.sla_breached ?? 0,
    slaDueSoon: f?.sla_due_soon ?? 0,
    recentTickets: rowsOf<TicketRow>(recent).map(toTicket),
    openedVsResolved: countsOf(series).map(({ bucket, opened, resolved }) => ({ day: bucket, opened, resolved })),
  };
};
