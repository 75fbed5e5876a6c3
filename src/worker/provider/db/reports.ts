import { daysFrom } from '../../../shared/dates';
import type { TicketReportQuery, TimesheetQuery } from '../../../shared/schemas/reports';
import type { TicketReport, TimesheetReport } from '../../../shared/types';
import { bucketsOf, countsOf, openedAndResolved } from './report-buckets';
import { rowsOf } from './rows';
import { fullName, whereSql } from './sql';

interface DayRow {
  user_id: number;
  work_date: string;
  minutes: number;
  billable: number;
}

interface GroupRow {
  key: string | number | null;
  label: string;
  count: number;
}

/**
 * Hours per user per day, split billable, with totals by user and by day. Everything is summed
 * in SQLite; the time_entries (work_date, user_id, minutes, billable) index covers the scan.
 */
export const timesheet = async (db: D1Database, query: TimesheetQuery): Promise<TimesheetReport> => {
  const { where, params } = whereSql([
    (bind) => `e.work_date BETWEEN ${bind(query.from)} AND ${bind(query.to)}`,
    query.userId && ((bind) => `e.user_id = ${bind(query.userId)}`),
    query.companyId && ((bind) => `t.company_id = ${bind(query.companyId)}`),
  ]);
  const join = query.companyId ? 'JOIN tickets t ON t.id = e.ticket_id' : '';

  const { results } = await db
    .prepare(
      `SELECT e.user_id, e.work_date, sum(e.minutes) AS minutes, sum(CASE WHEN e.billable = 1 THEN e.minutes ELSE 0 END) AS billable
       FROM time_entries e ${join} ${where}
       GROUP BY e.user_id, e.work_date ORDER BY e.work_date, e.user_id`,
    )
    .bind(...params)
    .all<DayRow>();
  const userIds = [...new Set(results.map((r) => r.user_id))];
  // One JSON array, however many people logged time: D1 binds at most 100 values a statement.
  const names = userIds.length
    ? (
        await db
          .prepare(`SELECT id, ${fullName()} AS name FROM users WHERE id IN (SELECT value FROM json_each(?1))`)
          .bind(JSON.stringify(userIds))
          .all<{ id: number; name: string }>()
      ).results
    : [];
  const nameOf = new Map(names.map((n) => [n.id, n.name]));

  const cells = results.map((r) => ({
    userId: r.user_id,
    workDate: r.work_date,
    minutes: r.minutes,
    billableMinutes: r.billable,
  }));
  const sumBy = <K extends string | number>(key: (cell: (typeof cells)[number]) => K) => {
    const sums = new Map<K, { minutes: number; billableMinutes: number }>();
    for (const cell of cells) {
      const entry = sums.get(key(cell)) ?? { minutes: 0, billableMinutes: 0 };
      entry.minutes += cell.minutes;
      entry.billableMinutes += cell.billableMinutes;
      sums.set(key(cell), entry);
    }
    return sums;
  };
  const users = [...sumBy((c) => c.userId)].map(([userId, sums]) => ({ userId, userName: nameOf.get(userId) ?? `User ${userId}`, ...sums }));
  users.sort((a, b) => a.userName.localeCompare(b.userName));
  const days = [...sumBy((c) => c.workDate)].map(([workDate, sums]) => ({ workDate, ...sums }));
  const totals = users.reduce((sum, u) => ({ minutes: sum.minutes + u.minutes, billableMinutes: sum.billableMinutes + u.billableMinutes }), { minutes: 0, billableMinutes: 0 });
  return { from: query.from, to: query.to, days, users, cells, totals };
};

const GROUPS = {
  status: { key: 't.status', label: 't.status', join: '' },
  category: { key: 't.category_id', label: "coalesce(k.name, 'No category')", join: 'LEFT JOIN ticket_categories k ON k.id = t.category_id' },
  company: { key: 't.company_id', label: "coalesce(c.name, 'No company')", join: 'LEFT JOIN companies c ON c.id = t.company_id' },
  assignee: { key: 't.assignee_id', label: `coalesce(${fullName('u')}, 'Unassigned')`, join: 'LEFT JOIN users u ON u.id = t.assignee_id' },
} as const;

const LONG_RANGE_DAYS = 62;

/**
 * Tickets opened in a range counted by one grouping, opened against resolved per day (per month
 * over two months), and the median time to resolve of the tickets resolved in the range.
 */
export const ticketReport = async (db: D1Database, query: TicketReportQuery): Promise<TicketReport> => {
  const group = GROUPS[query.groupBy];
  // Stored times are ISO text, so a range of days is a text range on them.
  const from = `${query.from}T00:00:00.000Z`;
  const to = `${query.to}T23:59:59.999Z`;
  const long = daysFrom(query.from, query.to) > LONG_RANGE_DAYS;
  const buckets = bucketsOf(query.from, query.to, long ? 'month' : 'day');

  // The unary + keeps SQLite off the created_at index here: counting through the grouped
  // column's (column, created_at) index reads no table rows, where the created_at index would
  // look up every ticket in the range for its group.
  const [groups, series, counts] = await db.batch([
    db
      .prepare(
        `SELECT ${group.key} AS key, ${group.label} AS label, count(*) AS count FROM tickets t ${group.join}
         WHERE +t.created_at BETWEEN ?1 AND ?2 GROUP BY ${group.key} ORDER BY count DESC, label`,
      )
      .bind(from, to),
    openedAndResolved(db, buckets),
    db.prepare('SELECT count(*) AS n FROM tickets WHERE resolved_at BETWEEN ?1 AND ?2').bind(from, to),
  ]);

  const resolvedCount = rowsOf<{ n: number }>(counts)[0]?.n ?? 0;
  const median = resolvedCount
    ? await db
        .prepare(
          `SELECT (julianday(resolved_at) - julianday(created_at)) * 24 AS hours FROM tickets
           WHERE resolved_at BETWEEN ?1 AND ?2 ORDER BY hours LIMIT ${resolvedCount % 2 ? 1 : 2} OFFSET ?3`,
        )
        .bind(from, to, Math.floor((resolvedCount - 1) / 2))
        .all<{ hours: number }>()
    : null;
  const middle = median?.results.map((r) => r.hours) ?? [];
  const points = countsOf(series);

  return {
    from: query.from,
    to: query.to,
    groupBy: query.groupBy,
    groups: rowsOf<GroupRow>(groups).map((r) => ({ key: String(r.key ?? 'none'), label: r.label, count: r.count })),
    bucket: long ? 'month' : 'day',
    series: points,
    totals: { opened: points.reduce((sum, point) => sum + point.opened, 0), resolved: resolvedCount },
    medianResolveHours: middle.length ? Math.round((middle.reduce((a, b) => a + b, 0) / middle.length) * 10) / 10 : null,
  };
};
