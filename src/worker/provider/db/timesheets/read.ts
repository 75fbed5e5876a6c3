import { isoWeekDays, isoWeekSql } from '../../../../shared/iso-week';
import type { TimesheetState, TimesheetWeek } from '../../../../shared/types';
import { fullName } from '../sql';

/** Reading person-weeks (docs/api.md#timesheets): a week with no row is open. */

interface WeekRow {
  user_id: number;
  user_name: string;
  week: string;
  state: TimesheetState;
  minutes: number;
  submitted_at: string | null;
  decided_by: number | null;
  decided_by_name: string | null;
  decided_at: string | null;
  reason: string;
}

const toWeek = (row: WeekRow): TimesheetWeek => ({
  userId: row.user_id,
  userName: row.user_name,
  week: row.week,
  state: row.state,
  minutes: row.minutes,
  submittedAt: row.submitted_at,
  decidedBy: row.decided_by,
  decidedByName: row.decided_by_name,
  decidedAt: row.decided_at,
  reason: row.reason,
});

// ?1 the week, ?2 its Monday, ?3 its Sunday; the people are chosen by `people`, over users `u`.
const weeksSql = (people: string) => `
  SELECT u.id AS user_id, ${fullName('u')} AS user_name, ?1 AS week, coalesce(w.state, 'open') AS state,
         (SELECT coalesce(sum(e.minutes), 0) FROM time_entries e WHERE e.user_id = u.id AND e.work_date BETWEEN ?2 AND ?3) AS minutes,
         w.submitted_at, w.decided_by, ${fullName('d')} AS decided_by_name, w.decided_at, coalesce(w.reason, '') AS reason
  FROM users u
  LEFT JOIN timesheet_weeks w ON w.user_id = u.id AND w.week = ?1
  LEFT JOIN users d ON d.id = w.decided_by
  WHERE ${people}
  ORDER BY CASE coalesce(w.state, 'open') WHEN 'submitted' THEN 0 WHEN 'rejected' THEN 1 WHEN 'open' THEN 2 ELSE 3 END, u.surname, u.first_name, u.id`;

const weekParams = (week: string) => {
  const { from, to } = isoWeekDays(week);
  return [week, from, to];
};

/** One person's week, or null when there is no such person. */
export const findWeek = async (db: D1Database, userId: number, week: string) => {
  const row = await db
    .prepare(weeksSql('u.id = ?4'))
    .bind(...weekParams(week), userId)
    .first<WeekRow>();
  return row ? toWeek(row) : null;
};

/** Every person who logged time in the week or whose week has left `open`: waiting weeks first. */
export const listWeeks = async (db: D1Database, week: string) => {
  const people = `u.id IN (SELECT e.user_id FROM time_entries e WHERE e.work_date BETWEEN ?2 AND ?3
                          UNION SELECT t.user_id FROM timesheet_weeks t WHERE t.week = ?1 AND t.state <> 'open')`;
  const { results } = await db
    .prepare(weeksSql(people))
    .bind(...weekParams(week))
    .all<WeekRow>();
  return results.map(toWeek);
};

/** How many unapproved person-weeks a warning lists at most; `total` still counts them all. */
export const UNAPPROVED_LISTED = 50;

/**
 * The person-weeks holding time logged in a billing month (`YYYY-MM`) that are not approved: what
 * closing the month or issuing its statement would bill before anyone signed it off. A warning,
 * never a block (docs/api.md#timesheets).
 */
export const unapprovedWeeks = async (db: D1Database, period: string) => {
  const from = `${period}-01`;
  const { results } = await db
    .prepare(
      `SELECT t.user_id, ${fullName('u')} AS user_name, t.week, coalesce(w.state, 'open') AS state, t.minutes, count(*) OVER () AS total
       FROM (SELECT e.user_id, ${isoWeekSql('e.work_date')} AS week, sum(e.minutes) AS minutes
             FROM time_entries e WHERE e.work_date BETWEEN ?1 AND date(?1, '+1 month', '-1 day') GROUP BY 1, 2) t
       JOIN users u ON u.id = t.user_id
       LEFT JOIN timesheet_weeks w ON w.user_id = t.user_id AND w.week = t.week
       WHERE coalesce(w.state, 'open') <> 'approved'
       ORDER BY t.week, u.surname, u.first_name, u.id
       LIMIT ${UNAPPROVED_LISTED}`,
    )
    .bind(from)
    .all<{ user_id: number; user_name: string; week: string; state: TimesheetState; minutes: number; total: number }>();
  return {
    total: results[0]?.total ?? 0,
    weeks: results.map((row) => ({ userId: row.user_id, userName: row.user_name, week: row.week, state: row.state, minutes: row.minutes })),
  };
};
