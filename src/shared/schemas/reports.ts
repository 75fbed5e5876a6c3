import { object, string, type InferType } from 'yup';
import { dateRange, personsToday } from './filters';
import { filterId } from './ids';

export const MAX_RANGE_DAYS = 366;

/** A from–to range of at most a year, `from` not after `to`. */
const { from, to } = dateRange(MAX_RANGE_DAYS);
const range = { from: from.required('Required'), to: to.required('Required') };

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

/** `GET reports/sla`: a company's months; without `companyId`, every company. */
export const slaReportQuerySchema = object({ ...range, companyId: filterId() });
export type SlaReportQuery = InferType<typeof slaReportQuerySchema>;

/** `GET dashboard/summary`: the asking person's today, so "overdue" and "this week" follow their calendar. */
export const dashboardQuerySchema = object({ today: personsToday() });
export type DashboardQuery = InferType<typeof dashboardQuerySchema>;
