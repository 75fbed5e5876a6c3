import type { DashboardSummary } from '../../../shared/types';
import { bucketsOf, countsOf, openedAndResolved } from './buckets';
import { toTicket } from './tickets';

type Row = Record<string, unknown>;

const OPEN = "('open', 'in_progress', 'on_hold')";
const DAYS_CHARTED = 30;

/** Monday of the current UTC week, as YYYY-MM-DD. */
const weekStart = (now: Date) => {
  const monday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
  return monday.toISOString().slice(0, 10);
};

/** The dashboard's figures in one batch: one round trip, one consistent read. */
export const dashboardSummary = async (db: D1Database, userId: number, now = new Date()): Promise<DashboardSummary> => {
  const today = now.toISOString().slice(0, 10);
  const since = new Date(now.getTime() - (DAYS_CHARTED - 1) * 86_400_000).toISOString().slice(0, 10);
  const weekAgo = new Date(now.getTime() - 7 * 86_400_000).toISOString();
  const [figures, recent, series] = await db.batch<Row>([
    db
      .prepare(
        `SELECT
           (SELECT count(*) FROM tickets WHERE status IN ${OPEN}) AS open_tickets,
           (SELECT count(*) FROM tickets WHERE status IN ${OPEN} AND assignee_id = ?1) AS my_open,
           (SELECT count(*) FROM tickets WHERE status IN ${OPEN} AND due_at < ?2) AS overdue,
           (SELECT count(*) FROM tickets WHERE resolved_at >= ?3) AS resolved_7,
           (SELECT coalesce(sum(minutes), 0) FROM time_entries WHERE work_date >= ?4) AS minutes_week,
           (SELECT coalesce(sum(amount_cents), 0) FROM invoice_lines WHERE status != 'invoiced') AS unbilled`,
      )
      .bind(userId, today, weekAgo, weekStart(now)),
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
