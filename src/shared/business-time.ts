/**
 * Business time for the service-level clock (docs/architecture.md#service-levels): time that counts
 * only inside a calendar's working hours, in its own time zone (daylight saving included), and not
 * on its holidays. The Worker keeps every ticket's due times with this; the client never needs to.
 *
 * - Hours are wall-clock spans per ISO weekday. `to` "24:00" is midnight at the day's end; a span
 *   whose `to` is not after its `from` runs past midnight into the next day (22:00–06:00) and
 *   belongs to the day it starts on, so a holiday on that day removes all of it.
 * - Spans may overlap (the same time counts once) and a day may have several.
 * - A calendar with no hours counts around the clock, holidays included: "no hours" is how a
 *   calendar says the promise never sleeps.
 */
import type { CalendarHours } from './sla';
import { addDays, formatLocalDate, isoWeekday, localDate, zonedInstant, type LocalDate } from './zoned-time';

export { isTimeZone } from './zoned-time';

export interface BusinessCalendar {
  timeZone: string;
  hours: CalendarHours[];
  holidays: string[];
}

const MINUTE_MS = 60_000;
/** Days searched for any working time at all before a calendar is called empty (every day a holiday). */
const EMPTY_SEARCH_DAYS = 3 * 366;
/** Days searched in all: bounds the loop for a small calendar and a huge target. */
const LONGEST_SEARCH_DAYS = 30 * 366;

export class NoBusinessTimeError extends Error {
  constructor() {
    super('The calendar has no working time in the next three years');
    this.name = 'NoBusinessTimeError';
  }
}

/** `HH:MM` → minutes after midnight; `24:00` is 1440. */
export function minuteOfDay(time: string): number {
  const match = /^(\d{2}):(\d{2})$/.exec(time);
  if (!match) return Number.NaN;
  const minutes = Number(match[1]) * 60 + Number(match[2]);
  return Number(match[2]) < 60 && minutes <= 1440 ? minutes : Number.NaN;
}

const aroundTheClock = (calendar: BusinessCalendar) => calendar.hours.length === 0;

/** The day's working spans as instants, sorted by start. */
function spansOf(calendar: BusinessCalendar, date: LocalDate, holidays: ReadonlySet<string>): [number, number][] {
  if (holidays.has(formatLocalDate(date))) return [];
  const weekday = isoWeekday(date);
  const spans: [number, number][] = [];
  for (const hours of calendar.hours) {
    if (hours.day !== weekday) continue;
    const from = minuteOfDay(hours.from);
    const to = minuteOfDay(hours.to);
    if (Number.isNaN(from) || Number.isNaN(to) || from >= 1440) continue;
    const start = zonedInstant(calendar.timeZone, date, from);
    const end = to > from ? zonedInstant(calendar.timeZone, date, to) : zonedInstant(calendar.timeZone, addDays(date, 1), to);
    if (end > start) spans.push([start, end]);
  }
  return spans.sort((a, b) => a[0] - b[0]);
}

/**
 * Working time from `from` (up to `until`), as non-overlapping intervals in order. It starts a day
 * early so a span that began the evening before and runs past midnight is not missed. Without an
 * end it gives up on a calendar with no working day in three years rather than loop for ever.
 */
function* workingIntervals(calendar: BusinessCalendar, from: number, until = Number.POSITIVE_INFINITY): Generator<[number, number]> {
  const holidays = new Set(calendar.holidays);
  let date = addDays(localDate(calendar.timeZone, from), -1);
  let current: [number, number] | null = null;
  let emptyDays = 0;
  for (let day = 0; day < LONGEST_SEARCH_DAYS; day++, date = addDays(date, 1)) {
    const spans = spansOf(calendar, date, holidays);
    if (spans.length === 0 && ++emptyDays > EMPTY_SEARCH_DAYS && until === Number.POSITIVE_INFINITY) throw new NoBusinessTimeError();
    if (spans.length) emptyDays = 0;
    for (const [start, end] of spans) {
      if (end <= from) continue;
      if (start >= until) {
        if (current) yield current;
        return;
      }
      const clipped: [number, number] = [Math.max(start, from), Math.min(end, until)];
      if (current && clipped[0] <= current[1]) current[1] = Math.max(current[1], clipped[1]);
      else {
        if (current) yield current;
        current = clipped;
      }
    }
    // Every span of a later day starts after this day's midnight, so once that is past `until` nothing more counts.
    if (zonedInstant(calendar.timeZone, addDays(date, 1), 0) >= until) break;
  }
  if (current) yield current;
  if (until === Number.POSITIVE_INFINITY) throw new NoBusinessTimeError();
}

/** The instant after `start` at which `minutes` of business time have passed. */
export function addBusinessMinutes(calendar: BusinessCalendar, start: Date, minutes: number): Date {
  // NaN or Infinity would never be used up and would walk the whole thirty-year search.
  if (!Number.isFinite(minutes)) throw new RangeError(`Business minutes must be a finite number, not ${minutes}`);
  let left = Math.max(0, minutes) * MINUTE_MS;
  if (aroundTheClock(calendar)) return new Date(start.getTime() + left);
  if (left === 0) return new Date(start);
  for (const [from, to] of workingIntervals(calendar, start.getTime())) {
    if (to - from >= left) return new Date(from + left);
    left -= to - from;
  }
  throw new NoBusinessTimeError();
}

/** Business seconds inside [start, end); 0 when end is not after start. */
export function businessSecondsBetween(calendar: BusinessCalendar, start: Date, end: Date): number {
  const from = start.getTime();
  const until = end.getTime();
  if (until <= from) return 0;
  if (aroundTheClock(calendar)) return Math.floor((until - from) / 1000);
  let total = 0;
  for (const [spanStart, spanEnd] of workingIntervals(calendar, from, until)) total += spanEnd - spanStart;
  return Math.floor(total / 1000);
}

/** True when `at` falls inside working hours and not on a holiday. */
export function isBusinessTime(calendar: BusinessCalendar, at: Date): boolean {
  return businessSecondsBetween(calendar, at, new Date(at.getTime() + 1000)) > 0;
}
