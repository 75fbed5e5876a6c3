import { number, object, string, type InferType } from 'yup';
import { calendarDate } from './tickets';

const MAX_RANGE_DAYS = 366;
const DAY_MS = 86_400_000;

const filterId = () => number().typeError('Must be a number').integer('Must be a whole number').positive('Must be positive');

/** A from–to range of at most a year, `from` not after `to`. */
const range = {
  from: calendarDate().required('Required'),
  to: calendarDate()
    .required('Required')
    .test('after-from', 'Must not be before from', function check(to) {
      const { from } = this.parent as { from?: string };
      return !from || !to || from <= to;
    })
    .test('range', `The range must be at most ${MAX_RANGE_DAYS} days`, function check(to) {
      const { from } = this.parent as { from?: string };
      return !from || !to || (Date.parse(to) - Date.parse(from)) / DAY_MS < MAX_RANGE_DAYS;
    }),
};

export const timesheetQuerySchema = object({ ...range, userId: filterId(), companyId: filterId() });
export type TimesheetQuery = InferType<typeof timesheetQuerySchema>;

export const TICKET_REPORT_GROUPS = ['status', 'category', 'company', 'assignee'] as const;
export type TicketReportGroup = (typeof TICKET_REPORT_GROUPS)[number];
/** A ticket report counts by day, or by month over longer ranges. */
export const REPORT_BUCKETS = ['day', 'month'] as const;
export type ReportBucket = (typeof REPORT_BUCKETS)[number];

export const ticketReportQuerySchema = object({
  ...range,
  groupBy: string().oneOf(TICKET_REPORT_GROUPS, `Must be one of ${TICKET_REPORT_GROUPS.join(', ')}`).default('status'),
});
export type TicketReportQuery = InferType<typeof ticketReportQuerySchema>;
