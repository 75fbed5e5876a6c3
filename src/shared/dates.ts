/**
 * Plain calendar days as the API speaks them: `YYYY-MM-DD`, no time, no zone. The arithmetic runs
 * on UTC midnights so a day is always 24 hours long (no daylight-saving jumps); only `localDay`
 * reads a time zone, the one of the runtime it runs in (the browser's, in the app).
 */
export const DAY_MS = 86_400_000;

export const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** The UTC midnight of a `YYYY-MM-DD` day (only its first ten characters are read). */
const midnight = (day: string) => Date.parse(`${day.slice(0, 10)}T00:00:00Z`);

/** A day's `YYYY-MM-DD`, from a time in milliseconds read in UTC. */
export const formatDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A real calendar day: `2026-02-30` has the right shape but is refused. */
export const isRealDate = (value: string) => {
  const ms = midnight(value);
  return !Number.isNaN(ms) && formatDay(ms) === value.slice(0, 10);
};

/** `value` when it is a real `YYYY-MM-DD` day, else undefined: typed or pasted text is parsed here once. */
export const parseDay = (value: string | null | undefined) => (value && ISO_DATE.test(value) && isRealDate(value) ? value : undefined);

/** The UTC calendar day of an instant: the provider's "today". */
export const utcDay = (now: Date = new Date()) => formatDay(now.getTime());

/** The calendar day of an instant in the runtime's own time zone: in the browser, the person's "today". */
export const localDay = (now: Date = new Date()) => `${pad(now.getFullYear(), 4)}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;

export const addDays = (day: string, days: number) => formatDay(midnight(day) + days * DAY_MS);

/** The same day of the month `months` later, clipped to the month's end (31 Jan + 1 → 28 or 29 Feb). */
export const addMonths = (day: string, months: number) => {
  const date = new Date(midnight(day));
  const first = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1);
  const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months + 1, 0)).getUTCDate();
  return formatDay(first + (Math.min(date.getUTCDate(), last) - 1) * DAY_MS);
};

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export const daysFrom = (from: string, to: string) => Math.round((midnight(to) - midnight(from)) / DAY_MS);

/** The Monday of the week (Monday to Sunday) holding `day`. */
export const weekStart = (day: string) => addDays(day, -((new Date(midnight(day)).getUTCDay() + 6) % 7));

export const weekBounds = (day: string) => {
  const from = weekStart(day);
  return { from, to: addDays(from, 6) };
};

/** The first and last day of the calendar month holding `day`. */
export const monthBounds = (day: string) => {
  const date = new Date(midnight(day));
  return {
    from: formatDay(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1)),
    to: formatDay(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)),
  };
};

/** The first and last day of the calendar quarter holding `day`. */
export const quarterBounds = (day: string) => {
  const date = new Date(midnight(day));
  const first = date.getUTCMonth() - (date.getUTCMonth() % 3);
  return {
    from: formatDay(Date.UTC(date.getUTCFullYear(), first, 1)),
    to: formatDay(Date.UTC(date.getUTCFullYear(), first + 3, 0)),
  };
};

/** Every day from `from` to `to`, both included. */
export const daysBetween = (from: string, to: string) => {
  const days: string[] = [];
  for (let ms = midnight(from), end = midnight(to); ms <= end; ms += DAY_MS) days.push(formatDay(ms));
  return days;
};
