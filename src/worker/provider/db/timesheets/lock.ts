import { isoWeekOf, isoWeekSql } from '../../../../shared/iso-week';
import { Conflict } from '../../errors/domain';
import { columnOf, type Condition } from '../sql';

/**
 * The timesheet lock (docs/architecture.md#timesheets): time in a person's submitted or approved
 * week cannot be created, changed or deleted. It is a condition of the time-entry write itself, so
 * a write and a submit sent at once are ordered by D1: either the time is in before the week is
 * submitted, or the write finds the week locked and changes nothing.
 */

export const LOCKED_STATES = "('submitted', 'approved')";

/** No submitted or approved week of the person (`user`, SQL) holds the day (`day`, SQL). */
export const weekOpenSql = (user: string, day: string) =>
  `NOT EXISTS (SELECT 1 FROM timesheet_weeks w WHERE w.user_id = ${user} AND w.week = ${isoWeekSql(day)} AND w.state IN ${LOCKED_STATES})`;

/**
 * For a correction: the entry's own week is open, and so is the week of its new day (`newDay`,
 * the changed work date or undefined), the entry's person either way.
 */
export const weeksOpen =
  (newDay: string | undefined): Condition =>
  (bind, row) => {
    const user = columnOf(row, 'user_id');
    const own = weekOpenSql(user, columnOf(row, 'work_date'));
    return newDay === undefined ? own : `${own} AND ${weekOpenSql(user, bind(newDay))}`;
  };

/**
 * After a time-entry write changed nothing: a Conflict naming the first of `days` whose week is
 * locked for the person ("Week 2026-W47 is submitted"), or nothing when none is, so the caller
 * words the refusal by its other rules. Read after the write, only to explain it.
 */
export const refuseLockedWeek = async (db: D1Database, userId: number, days: (string | undefined)[]) => {
  const weeks = [...new Set(days.filter((day): day is string => day !== undefined).map(isoWeekOf))];
  if (!weeks.length) return;
  const row = await db
    .prepare(
      `SELECT week, state FROM timesheet_weeks
       WHERE user_id = ?1 AND week IN (SELECT value FROM json_each(?2)) AND state IN ${LOCKED_STATES}
       ORDER BY week LIMIT 1`,
    )
    .bind(userId, JSON.stringify(weeks))
    .first<{ week: string; state: string }>();
  if (row) throw new Conflict(`Week ${row.week} is ${row.state}`, { workDate: [`Week ${row.week} is ${row.state}`] });
};
