import { boolean, string } from 'yup';
// Sets yup's messages before any schema here is built.
import './fields';
import { daysFrom, ISO_DATE, isRealDate, parseDay, utcDay } from '../dates';

export const calendarDate = () =>
  string()
    .matches(ISO_DATE, 'Must be a date as YYYY-MM-DD')
    .test('real-date', 'Must be a real date', (value) => !value || isRealDate(value));

/**
 * The asking person's today (their calendar, YYYY-MM-DD), for figures that count from "today" or
 * "this week". Every time zone is within a day of UTC, so anything further off is refused.
 */
export const personsToday = () =>
  calendarDate().test('today', 'Must be today in some time zone', (value) => {
    // A value that is no date at all gets calendarDate's message alone.
    const day = parseDay(value);
    return !day || Math.abs(daysFrom(utcDay(), day)) <= 1;
  });

/** A yes/no query value: `true`/`false` (or `1`/`0`); anything else is refused, never read as no. */
export const filterFlag = () => boolean().typeError('Must be true or false');

/**
 * A `from`–`to` pair of days, `to` not before `from` and, when `maxDays` is given, the range at
 * most that many days long counting both ends.
 */
export const dateRange = (maxDays?: number) => {
  const to = calendarDate().test('after-from', 'Must not be before from', function check(value) {
    const { from } = this.parent as { from?: string };
    return !from || !value || from <= value;
  });
  return {
    from: calendarDate(),
    to:
      maxDays === undefined
        ? to
        : to.test('range', `The range must be at most ${maxDays} days`, function check(value) {
            const { from } = this.parent as { from?: string };
            return !from || !value || !isRealDate(from) || !isRealDate(value) || daysFrom(from, value) < maxDays;
          }),
  };
};
