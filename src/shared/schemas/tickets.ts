import { boolean, number, object, string, type InferType } from 'yup';
import { listQuerySchema } from './list';
import { filledLine, paragraph, recordId } from './fields';

export const TICKET_STATUSES = ['open', 'in_progress', 'on_hold', 'resolved', 'closed'] as const;
export const TICKET_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];

export const TICKET_SORTS = ['createdAt', 'updatedAt', 'dueAt', 'priority', 'status', 'title', 'id'] as const;
export type TicketSort = (typeof TICKET_SORTS)[number];

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z$/;

/** A real calendar day: `2026-02-30` has the right shape but is refused. */
export const isRealDate = (value: string) => {
  const date = new Date(`${value.slice(0, 10)}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value.slice(0, 10);
};

export const calendarDate = () =>
  string()
    .matches(ISO_DATE, 'Must be a date as YYYY-MM-DD')
    .test('real-date', 'Must be a real date', (value) => !value || isRealDate(value));

const dueAt = string()
  .nullable()
  .test('due-at', 'Must be a date or an ISO 8601 UTC time', (value) =>
    value == null || ((ISO_DATE.test(value) || ISO_DATE_TIME.test(value)) && isRealDate(value)),
  );

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

const filterId = () => number().typeError('Must be a number').integer('Must be a whole number').positive('Must be positive');

export const ticketListQuerySchema = listQuerySchema.shape({
  status: string().oneOf(TICKET_STATUSES, `Must be one of ${TICKET_STATUSES.join(', ')}`),
  priority: string().oneOf(TICKET_PRIORITIES, `Must be one of ${TICKET_PRIORITIES.join(', ')}`),
  companyId: filterId(),
  categoryId: filterId(),
  assigneeId: filterId(),
  sort: string().oneOf(
    TICKET_SORTS.flatMap((key) => [key, `-${key}`]),
    `Must be one of ${TICKET_SORTS.join(', ')}, optionally prefixed with -`,
  ),
});
export type TicketListQuery = InferType<typeof ticketListQuerySchema>;

export const commentSchema = object({ body: paragraph(5000).matches(/\S/, 'Required').required('Required') });
export type CommentPayload = InferType<typeof commentSchema>;

export const timeEntrySchema = object({
  workDate: calendarDate().required('Required'),
  minutes: number()
    .integer('Must be a whole number of minutes')
    .min(1, 'Must be at least 1 minute')
    .max(24 * 60, 'Must be at most 24 hours')
    .required('Required'),
  note: paragraph(500),
  billable: boolean(),
});
export type TimeEntryPayload = InferType<typeof timeEntrySchema>;
