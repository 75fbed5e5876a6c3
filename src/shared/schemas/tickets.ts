import { boolean, number, object, string, type InferType } from 'yup';
import { addMonths, ISO_DATE, isRealDate, utcDay } from '../dates';
import { DURATION_FORMAT, DURATION_MAX, DURATION_MIN, DURATION_WHOLE, MINUTES_PER_DAY, parseDuration } from '../duration';
import { filledLine, filledParagraph, paragraph } from './fields';
import { calendarDate, filterFlag, personsToday } from './filters';
import { filterId, recordId } from './ids';
import { listQuerySchema } from './list';
import { SLA_FILTERS } from '../sla';

export const TICKET_STATUSES = ['open', 'in_progress', 'on_hold', 'resolved', 'closed'] as const;
export const TICKET_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];

export const TICKET_SORTS = ['createdAt', 'updatedAt', 'dueAt', 'priority', 'status', 'title', 'id', 'slaDueAt'] as const;
export type TicketSort = (typeof TICKET_SORTS)[number];

const ISO_DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?Z$/;

/** `YYYY-MM-DD`, or a UTC time on a real day with hours, minutes and seconds in range (not 99:99:99). */
export const isDateOrDateTime = (value: string) => {
  if (ISO_DATE.test(value)) return isRealDate(value);
  const [, day, hours, minutes, seconds = '00'] = ISO_DATE_TIME.exec(value) ?? [];
  return day !== undefined && isRealDate(day) && Number(hours) < 24 && Number(minutes) < 60 && Number(seconds) < 60;
};

export const EARLIEST_WORK_DATE = '2000-01-01';

/** The last day time can be logged for: one year after today (UTC). */
export const latestWorkDate = (now = new Date()) => addMonths(utcDay(now), 12);

const workDate = () =>
  calendarDate().test(
    'work-date-range',
    () => `Must be between ${EARLIEST_WORK_DATE} and ${latestWorkDate()}`,
    (value) => !value || !isRealDate(value) || (value >= EARLIEST_WORK_DATE && value <= latestWorkDate()),
  );

const dueAt = string()
  .nullable()
  .test('due-at', 'Must be a date or an ISO 8601 UTC time', (value) => value == null || isDateOrDateTime(value));

const optionalRef = () => recordId().nullable();

const ticketFields = {
  description: paragraph(10_000),
  status: string().oneOf(TICKET_STATUSES, `Must be one of ${TICKET_STATUSES.join(', ')}`),
  priority: string().oneOf(TICKET_PRIORITIES, `Must be one of ${TICKET_PRIORITIES.join(', ')}`),
  companyId: optionalRef(),
  categoryId: optionalRef(),
  assigneeId: optionalRef(),
  dueAt,
};

export const createTicketSchema = object({ title: filledLine(200, 'Required').required('Required'), ...ticketFields });
export const updateTicketSchema = object({ title: filledLine(200, 'Required'), ...ticketFields });
export type TicketPayload = InferType<typeof createTicketSchema>;
export type TicketChanges = InferType<typeof updateTicketSchema>;

export const ticketListQuerySchema = listQuerySchema.shape({
  status: string().oneOf(TICKET_STATUSES, `Must be one of ${TICKET_STATUSES.join(', ')}`),
  priority: string().oneOf(TICKET_PRIORITIES, `Must be one of ${TICKET_PRIORITIES.join(', ')}`),
  companyId: filterId(),
  categoryId: filterId(),
  assigneeId: filterId(),
  // The dashboard's figures as list views: still open (open, in progress, on hold), due before
  // today, assigned to the person asking.
  open: filterFlag(),
  overdue: filterFlag(),
  mine: filterFlag(),
  sla: string().oneOf(SLA_FILTERS, `Must be one of ${SLA_FILTERS.join(', ')}`),
  // What overdue counts from; without it, the UTC day.
  today: personsToday(),
  sort: string().oneOf(
    TICKET_SORTS.flatMap((key) => [key, `-${key}`]),
    `Must be one of ${TICKET_SORTS.join(', ')}, optionally prefixed with -`,
  ),
});
export type TicketListQuery = InferType<typeof ticketListQuerySchema>;

export const commentSchema = object({ body: filledParagraph(5000, 'Required').required('Required') });
export type CommentPayload = InferType<typeof commentSchema>;
/** A new comment may also be mailed to the ticket's requester ("Reply by mail"); an edit never mails again. */
export const newCommentSchema = commentSchema.shape({ sendToRequester: boolean() });
export type NewCommentPayload = InferType<typeof newCommentSchema>;

export { MINUTES_PER_DAY };

/**
 * Why minutes are not a number: the form's NaN is text in none of the duration forms; a caller
 * sending a duration as text ("1h 30m") is told the number to send instead of it being read as 130.
 */
const notMinutes = ({ value }: { value: unknown }) => {
  if (typeof value === 'number') return DURATION_FORMAT;
  const parsed = typeof value === 'string' ? parseDuration(value) : null;
  if (!parsed || !('minutes' in parsed)) return 'Must be a number of minutes, such as 90';
  // Spaces inside the text are not bounded by the forms: the echo is.
  const typed = (value as string).trim().replace(/\s+/g, ' ').slice(0, 40);
  return `Must be a number of minutes: ${parsed.minutes} for "${typed}"`;
};

const minutes = () =>
  number().typeError(notMinutes).integer(DURATION_WHOLE).min(1, DURATION_MIN).max(MINUTES_PER_DAY, DURATION_MAX);

export const timeEntrySchema = object({
  workDate: workDate().required('Required'),
  minutes: minutes().required('Required'),
  note: paragraph(500),
  billable: boolean(),
});
export type TimeEntryPayload = InferType<typeof timeEntrySchema>;

/** A correction of a time entry: the fields it names. */
export const updateTimeEntrySchema = object({ workDate: workDate(), minutes: minutes(), note: paragraph(500), billable: boolean() });
export type TimeEntryChanges = InferType<typeof updateTimeEntrySchema>;
