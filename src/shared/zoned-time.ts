/**
 * Wall-clock time in an IANA time zone, with only `Intl` (workerd and browsers both have it; no
 * time-zone library in either bundle). Used by the service-level clock (docs/architecture.md#service-levels).
 */

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let found = formatters.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, found);
  }
  return found;
}

/** True when `name` is a time zone this runtime knows, such as `Europe/London` or `UTC`. */
export function isTimeZone(name: string): boolean {
  if (!name || name.length > 64) return false;
  try {
    formatter(name);
    return true;
  } catch {
    return false;
  }
}

/** A calendar day: the local date in some zone. */
export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

/** The wall clock at `at` in `timeZone`, read as if it were UTC (milliseconds). */
function wallAsUtc(timeZone: string, at: number): number {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(at))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return Date.UTC(parts.year ?? 1970, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
}

/** How far the zone's clock is ahead of UTC at `at`, in milliseconds. */
export function offsetAt(timeZone: string, at: number): number {
  const whole = Math.floor(at / 1000) * 1000;
  return wallAsUtc(timeZone, whole) - whole;
}

/** The local date at `at`. */
export function localDate(timeZone: string, at: number): LocalDate {
  const wall = new Date(at + offsetAt(timeZone, at));
  return { year: wall.getUTCFullYear(), month: wall.getUTCMonth() + 1, day: wall.getUTCDate() };
}

/** `date` moved by whole days. */
export function addDays(date: LocalDate, days: number): LocalDate {
  const moved = new Date(Date.UTC(date.year, date.month - 1, date.day) + days * DAY_MS);
  return { year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() };
}

/** Monday 1 … Sunday 7. */
export function isoWeekday(date: LocalDate): number {
  return new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay() || 7;
}

/** `YYYY-MM-DD`. */
export function formatLocalDate(date: LocalDate): string {
  return `${String(date.year).padStart(4, '0')}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
}

/**
 * The instant the zone's clocks read `minuteOfDay` (0–1440) on `date`. A time the clocks show twice
 * (the hour repeated when they go back) is its first showing; a time they skip (the hour lost when
 * they go forward) is the moment they jump, the first instant after the gap.
 */
export function zonedInstant(timeZone: string, date: LocalDate, minuteOfDay: number): number {
  const wall = Date.UTC(date.year, date.month - 1, date.day) + minuteOfDay * MINUTE_MS;
  const before = offsetAt(timeZone, wall - DAY_MS);
  const after = offsetAt(timeZone, wall + DAY_MS);
  const early = wall - Math.max(before, after);
  if (wallAsUtc(timeZone, early) === wall) return early;
  const late = wall - Math.min(before, after);
  if (wallAsUtc(timeZone, late) === wall) return late;
  // In the gap: find the jump, which zones make on a whole minute, between the two readings.
  let low = Math.min(early, late);
  let high = Math.max(early, late);
  while (high - low > MINUTE_MS) {
    const middle = low + Math.floor((high - low) / 2 / MINUTE_MS) * MINUTE_MS;
    if (offsetAt(timeZone, middle) === offsetAt(timeZone, low)) low = middle;
    else high = middle;
  }
  return high;
}
