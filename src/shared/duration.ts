/**
 * Durations as people type them into a time entry (docs/api.md#tickets): `90`, `90m`, `45 min`,
 * `1:30`, `1h 30m`, `1h30`, `1.5h`, `1,5h`, `2h`. The API itself takes whole minutes as a number;
 * the form reads the text with this, and the API's refusal of a string names the number to send.
 * Text that matches none of these forms is refused, never cut down to its digits ("1h 30m" is not
 * 130).
 */

/** Minutes in a day: the most one entry, and all of one person's entries for one day, may hold. */
export const MINUTES_PER_DAY = 24 * 60;

export const DURATION_FORMAT = 'Enter minutes (90), hours and minutes (1:30, 1h 30m) or hours (1.5h)';
export const DURATION_WHOLE = 'Must be a whole number of minutes';
export const DURATION_MIN = 'Must be at least 1 minute';
export const DURATION_MAX = 'Must be at most 24 hours';

const HOURS = '(?:h|hr|hrs|hour|hours)';
const MINUTES = '(?:m|min|mins|minute|minutes)';
// Bounded digit runs: nothing here reads a number long enough to lose precision.
const DECIMAL = '(\\d{1,5}(?:[.,]\\d{1,4})?|[.,]\\d{1,4})';

const FORMS: { pattern: RegExp; minutes: (match: RegExpExecArray) => number }[] = [
  // 90, 90m, 45 min, 90.5 (read, then refused as a fraction of a minute)
  { pattern: new RegExp(`^${DECIMAL}\\s*(?:${MINUTES})?$`), minutes: ([, amount = '']) => decimalTimes(amount, 1) },
  // 1:30, 0:45: minutes after the colon are two digits under 60
  { pattern: /^(\d{1,3}):([0-5]\d)$/, minutes: ([, hours = '', rest = '']) => Number(hours) * 60 + Number(rest) },
  // 1h 30m, 1h30, 1 hour 30 minutes, 1 h 30 min (as the app writes durations)
  {
    pattern: new RegExp(`^(\\d{1,3})\\s*${HOURS}\\s*(\\d{1,2})\\s*(?:${MINUTES})?$`),
    minutes: ([, hours = '', rest = '']) => (Number(rest) < 60 ? Number(hours) * 60 + Number(rest) : Number.NaN),
  },
  // 2h, 1.5h, 1,5 hours
  { pattern: new RegExp(`^${DECIMAL}\\s*${HOURS}$`), minutes: ([, amount = '']) => decimalTimes(amount, 60) },
];

/**
 * A decimal written with a point or a comma, times a whole factor, without floating-point noise:
 * "1.1" hours is exactly 66 minutes, not 66.00000000000001. Inexact only when the result is not a
 * whole number, which is refused anyway.
 */
const decimalTimes = (amount: string, factor: number) => {
  const [whole = '', fraction = ''] = amount.split(/[.,]/);
  const scale = 10 ** fraction.length;
  return ((Number(whole || '0') * scale + Number(fraction || '0')) * factor) / scale;
};

/**
 * The minutes the text says, before any range check: 0, fractions and more than a day are
 * returned so the schema can say what is wrong with them; undefined for empty text, NaN for text
 * in none of the forms. A leading minus reads as a negative duration.
 */
export const readDuration = (text: string): number | undefined => {
  const trimmed = text.trim().toLowerCase();
  if (!trimmed) return undefined;
  const negative = trimmed.startsWith('-');
  const body = negative ? trimmed.slice(1).trim() : trimmed;
  for (const { pattern, minutes } of FORMS) {
    const match = pattern.exec(body);
    if (match) {
      const value = minutes(match);
      return negative ? -value : value;
    }
  }
  return Number.NaN;
};

/** Why a number of minutes cannot be a time entry's duration, or null when it can. */
export const durationFault = (minutes: number): string | null => {
  if (!Number.isFinite(minutes)) return DURATION_FORMAT;
  if (!Number.isInteger(minutes)) return DURATION_WHOLE;
  if (minutes < 1) return DURATION_MIN;
  if (minutes > MINUTES_PER_DAY) return DURATION_MAX;
  return null;
};

export type ParsedDuration = { minutes: number } | { error: string };

/** Typed text as whole minutes from 1 to a day, or the message saying why it is not one. */
export const parseDuration = (text: string): ParsedDuration => {
  const minutes = readDuration(text);
  if (minutes === undefined) return { error: DURATION_FORMAT };
  const fault = durationFault(minutes);
  return fault ? { error: fault } : { minutes };
};

/** Minutes as a form shows them to be edited: the plain number, which reads back the same. */
export const durationText = (minutes: number | undefined) => (minutes === undefined || Number.isNaN(minutes) ? '' : String(minutes));
