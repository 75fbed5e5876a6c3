import { addDays, isRealDate, weekStart } from './dates';

/**
 * ISO weeks (Monday to Sunday) as the timesheet API names them: `2026-W47`
 * (docs/api.md#timesheets). A week belongs to the year of its Thursday, so 2026-12-31 and
 * 2027-01-01 are both in 2026-W53, and 2024-12-30 is in 2025-W01.
 */
export const ISO_WEEK = /^(\d{4})-W(\d{2})$/;

const pad = (value: number) => String(value).padStart(2, '0');

/** The ISO week holding a `YYYY-MM-DD` day. */
export const isoWeekOf = (day: string) => {
  const thursday = addDays(weekStart(day), 3);
  const year = Number(thursday.slice(0, 4));
  const dayOfYear = Math.round((Date.parse(`${thursday}T00:00:00Z`) - Date.UTC(year, 0, 1)) / 86_400_000);
  return `${thursday.slice(0, 4)}-W${pad(Math.floor(dayOfYear / 7) + 1)}`;
};

/** The Monday of a `YYYY-Www` week, or undefined when it names no week (W00, W54, W53 of a 52-week year). */
export const isoWeekMonday = (week: string) => {
  const match = ISO_WEEK.exec(week);
  if (!match) return undefined;
  const [, year = '', number = ''] = match;
  const jan4 = `${year}-01-04`;
  if (!isRealDate(jan4)) return undefined;
  const monday = addDays(weekStart(jan4), (Number(number) - 1) * 7);
  return isoWeekOf(monday) === week ? monday : undefined;
};

export const isIsoWeek = (value: string) => isoWeekMonday(value) !== undefined;

/** The first and last day of a week that exists (callers validate it first). */
export const isoWeekDays = (week: string) => {
  const from = isoWeekMonday(week);
  if (!from) throw new Error(`not an ISO week: ${week}`);
  return { from, to: addDays(from, 6) };
};

/** The week before or after `week` (`offset` weeks on). */
export const shiftIsoWeek = (week: string, offset: number) => isoWeekOf(addDays(isoWeekDays(week).from, offset * 7));

/**
 * The same week in SQLite, of a `YYYY-MM-DD` SQL expression: its Thursday (three days back, then
 * the next Thursday on or after) gives the year and, by its day of the year, the number. Written
 * out rather than with strftime('%G-W%V'), which older SQLite builds do not know.
 */
export const isoWeekSql = (day: string) => {
  const thursday = `date(${day}, '-3 days', 'weekday 4')`;
  return `(strftime('%Y', ${thursday}) || '-W' || printf('%02d', (CAST(strftime('%j', ${thursday}) AS INTEGER) - 1) / 7 + 1))`;
};
