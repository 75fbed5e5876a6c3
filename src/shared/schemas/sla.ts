import { array, number, object, string, type InferType } from 'yup';
import { isTimeZone } from '../zoned-time';
import { filledLine } from './fields';
import { calendarDate } from './filters';
import { recordId } from './ids';
import { TICKET_PRIORITIES } from './tickets';

/** `HH:MM` from 00:00 to 24:00, the form calendar hours take. */
const clockTime = () => string().matches(/^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/, 'Must be a time such as 09:00');

export const timeZoneField = () => string().test('time-zone', 'Must be a time zone such as Europe/London', (value) => value == null || isTimeZone(value));

const hoursSpan = object({
  day: number().typeError('Must be a weekday from 1 (Monday) to 7 (Sunday)').integer('Must be a weekday from 1 (Monday) to 7 (Sunday)').min(1, 'Must be a weekday from 1 (Monday) to 7 (Sunday)').max(7, 'Must be a weekday from 1 (Monday) to 7 (Sunday)').required('Required'),
  from: clockTime().notOneOf(['24:00'], 'A span cannot start at 24:00').required('Required'),
  to: clockTime().required('Required'),
}).test('span', 'From and to must differ', (span) => !span || span.from !== span.to);

/** Spans a calendar may hold: three a day is plenty; this keeps one row far inside D1's limits. */
export const CALENDAR_SPANS_MAX = 21;
export const CALENDAR_HOLIDAYS_MAX = 366;

const calendarFields = {
  timeZone: timeZoneField(),
  hours: array(hoursSpan.required()).max(CALENDAR_SPANS_MAX, `At most ${CALENDAR_SPANS_MAX} spans of hours`),
  holidays: array(calendarDate().required('Required')).max(CALENDAR_HOLIDAYS_MAX, `At most ${CALENDAR_HOLIDAYS_MAX} holidays`),
};

/** `POST calendars`: no hours means around the clock. */
export const createCalendarSchema = object({
  name: filledLine(80, 'Required').required('Required'),
  ...calendarFields,
  timeZone: calendarFields.timeZone.required('Required'),
  hours: calendarFields.hours.default([]),
  holidays: calendarFields.holidays.default([]),
});
export const updateCalendarSchema = object({ name: filledLine(80, 'Required'), ...calendarFields });
export type CalendarPayload = InferType<typeof createCalendarSchema>;
export type CalendarChanges = InferType<typeof updateCalendarSchema>;

/** A target may be up to a year of business time. */
export const SLA_TARGET_MAX_MINUTES = 525_600;
const target = () =>
  number()
    .typeError('Must be a whole number of minutes')
    .integer('Must be a whole number of minutes')
    .min(1, 'Must be at least 1 minute')
    .max(SLA_TARGET_MAX_MINUTES, 'Must be at most a year (525600 minutes)');

export const SLA_POSITION_MAX = 1000;
const policyFields = {
  position: number().typeError('Must be a whole number').integer('Must be a whole number').min(1, 'Must be at least 1').max(SLA_POSITION_MAX, `Must be at most ${SLA_POSITION_MAX}`),
  companyId: recordId().nullable(),
  categoryId: recordId().nullable(),
  priority: string().nullable().oneOf([...TICKET_PRIORITIES, null], `Must be one of ${TICKET_PRIORITIES.join(', ')}`),
  calendarId: recordId(),
  firstResponseMinutes: target(),
  resolutionMinutes: target(),
};

const resolutionNotFirst = {
  name: 'resolution-after-response',
  message: 'Must not be shorter than the first response target',
  test(this: { parent: { firstResponseMinutes?: number } }, value: number | undefined) {
    const first = this.parent.firstResponseMinutes;
    return value == null || first == null || value >= first;
  },
};

/** `POST sla-policies`: the fields left out match every ticket. */
export const createSlaPolicySchema = object({
  name: filledLine(80, 'Required').required('Required'),
  ...policyFields,
  position: policyFields.position.required('Required'),
  calendarId: policyFields.calendarId.required('Required'),
  firstResponseMinutes: policyFields.firstResponseMinutes.required('Required'),
  resolutionMinutes: policyFields.resolutionMinutes.required('Required').test(resolutionNotFirst),
});
export const updateSlaPolicySchema = object({ name: filledLine(80, 'Required'), ...policyFields });
export type SlaPolicyPayload = InferType<typeof createSlaPolicySchema>;
export type SlaPolicyChanges = InferType<typeof updateSlaPolicySchema>;
