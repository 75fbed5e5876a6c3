import { ISO_DATE } from '../../shared/dates';
import { formatMoney } from '../../shared/money';

/**
 * Display formats shared by the pages: dates in the person's locale ("23 Nov 2026" in en-GB,
 * "Nov 23, 2026" in en-US), months spelled out ("November 2026"), money from integer cents.
 * `locale` is for tests; the app always passes none, so the browser's locale decides.
 */
const DATE_PARTS = { day: 'numeric', month: 'short', year: 'numeric' } as const;
const TIME_PARTS = { hour: '2-digit', minute: '2-digit' } as const;

// One Intl formatter per locale and set of options, made once: `toLocaleDateString` builds a new
// one on every call, which a slow phone feels on a page of dates (the dashboard's chart and list).
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const dateFormat = (locale: string | undefined, options: Intl.DateTimeFormatOptions) => {
  const key = `${locale ?? ''} ${JSON.stringify(options)}`;
  const known = dateFormats.get(key);
  if (known) return known;
  const made = new Intl.DateTimeFormat(locale, options);
  dateFormats.set(key, made);
  return made;
};

// A plain `YYYY-MM-DD` is a calendar day, not an instant: read at UTC midnight and shown in UTC so
// no time zone moves it to the day before.
const asDay = (day: string) => new Date(`${day}T00:00:00Z`);

/** A day (`YYYY-MM-DD`) or an instant (ISO time, shown in the person's time zone) as "23 Nov 2026". */
export const formatDate = (value: string | null | undefined, locale?: string) => {
  if (!value) return '—';
  return ISO_DATE.test(value)
    ? dateFormat(locale, { ...DATE_PARTS, timeZone: 'UTC' }).format(asDay(value))
    : dateFormat(locale, DATE_PARTS).format(new Date(value));
};

/** An instant as "23 Nov 2026, 14:05" in the person's time zone. */
export const formatDateTime = (value: string | null | undefined, locale?: string) =>
  value ? dateFormat(locale, { ...DATE_PARTS, ...TIME_PARTS }).format(new Date(value)) : '—';

/** A month (`YYYY-MM`) as "November 2026". */
export const formatMonth = (period: string, locale?: string) =>
  dateFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(asDay(`${period}-01`));

/** A day (`YYYY-MM-DD`) as a chart or column label: "Mon 23". */
export const formatWeekday = (day: string, locale?: string) =>
  dateFormat(locale, { weekday: 'short', day: 'numeric', timeZone: 'UTC' }).format(asDay(day));

/** A day (`YYYY-MM-DD`) as its weekday alone: "Mon", for a week's chart where seven dates do not fit. */
export const formatWeekdayName = (day: string, locale?: string) => dateFormat(locale, { weekday: 'short', timeZone: 'UTC' }).format(asDay(day));

/** A day (`YYYY-MM-DD`) as a short axis label: "23 Nov". */
export const formatShortDay = (day: string, locale?: string) =>
  dateFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(asDay(day));

/** A range of days as "23 Nov 2026 to 29 Nov 2026". */
export const formatDayRange = (range: { from: string; to: string }, locale?: string) => `${formatDate(range.from, locale)} to ${formatDate(range.to, locale)}`;

export const formatMinutes = (minutes: number) => {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return hours ? `${hours} h${rest ? ` ${rest} min` : ''}` : `${rest} min`;
};

/** Past this many hours a duration reads in days and hours. */
const HOURS_BEFORE_DAYS = 48;

/** A duration in hours: "36.5 h" up to 48 h, then whole days and hours, "3 d 4 h" (or "3 d"). */
export const formatHours = (hours: number, locale?: string) => {
  if (hours <= HOURS_BEFORE_DAYS) return `${hours.toLocaleString(locale, { maximumFractionDigits: 1 })} h`;
  const whole = Math.round(hours);
  const days = Math.floor(whole / 24);
  const rest = whole % 24;
  return rest ? `${days} d ${rest} h` : `${days} d`;
};

/** Money from integer cents in the person's locale: "$1,250.00" (one formatter with the provider's messages). */
export const formatCents = (cents: number, locale?: string) => formatMoney(cents, locale);

export const fullName = (person: { firstName: string; surname: string }) => `${person.firstName} ${person.surname}`;
