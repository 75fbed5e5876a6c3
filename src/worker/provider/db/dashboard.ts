import { addDays, DAY_MS, utcDay, weekStart } from '../../../shared/dates';
import type { DashboardSummary } from '../../../shared/types';
import { bucketsOf, countsOf, openedAndResolved } from './buckets';
import { OPEN_SQL, OVERDUE_SQL, toTicket } from './tickets';

type Row = Record<string, unknown>;

const DAYS_CHARTED = 30;

/** The dashboard's figures in one batch: one round trip, one consistent read. */
export const dashboardSummary = async (db: D1Database, userId: number, now = new Date()): Promise<DashboardSummary> => {
  const today = utcDay(now);
  const since = addDays(today, -(DAYS_CHARTED - 1));
  const weekAgo = new Date(now.getTime() - 7 * DAY_MS).toISOString();
  const [figures, recent, series] = await db.batch<Row>([
    db
      .prepare(
        `SELECT
           (SELECT count(*) FROM tickets t WHERE ${OPEN_SQL}) AS open_tickets,
           (SELECT count(*) FROM tickets t WHERE ${OPEN_SQL} AND t.assignee_id = ?1) AS my_open,
           (SELECT count(*) FROM tickets t WHERE ${OVERDUE_SQL.replace('?', '?2')}) AS overdue,
           (SELECT count(*) FROM tickets WHERE resolved_at >= ?3) AS resolved_7,
           (SELECT coalesce(sum(minutes), 0) FROM time_entries WHERE work_date >= ?4) AS minutes_week,
           (SELECT coalesce(sum(amount_cents), 0) FROM invoice_lines WHERE status != 'invoiced') AS unbilled`,
      )
      .bind(userId, today, weekAgo, weekStart(today)),
    db.prepare(
      `SELECT t.*, c.name AS company_name, k.name AS category_name, a.first_name || ' ' || a.surname AS assignee_name,
         r.first_name || ' ' || r.surname AS reporter_name
       FROM tickets t LEFT JOIN companies c ON c.id = t.company_id LEFT JOIN ticket_categories k ON k.id = t.category_id
       LEFT JOIN users a ON a.id = t.assignee_id LEFT JOIN users r ON r.id = t.reporter_id
       ORDER BY t.created_at DESC, t.id DESC LIMIT 8`,
    ),
    openedAndResolved(db, bucketsOf(since, today, 'day')),
  ]);
  const f = figures?.results[0] ?? {};
  return {
    openTickets: f.open_tickets as number,
    myOpenTickets: f.my_open as number,
    overdue: f.overdue as number,
    resolvedLast7Days: f.resolved_7 as number,
    minutesThisWeek: f.minutes_week as number,
    unbilledCents: f.unbilled as number,
    recentTickets: (recent?.results ?? []).map(toTicket),
    openedVsResolved: countsOf(series?.results).map(({ bucket, opened, resolved }) => ({ day: bucket, opened, resolved })),
  };
};
