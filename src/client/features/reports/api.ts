import type { SlaReportQuery, TicketReportQuery, TimesheetQuery } from '../../../shared/schemas/reports';
import { useApi } from '../../lib/use-api';

export const useTimesheet = (query: TimesheetQuery) => useApi('GET /reports/timesheet', { query });

export const useTicketReport = (query: TicketReportQuery) => useApi('GET /reports/tickets', { query });

export const useSlaReport = (query: SlaReportQuery) => useApi('GET /reports/sla', { query });

/** One person's ISO week (`2026-W47`) and where it stands; null waits. */
export const usePersonWeek = (week: string, userId: number | null) => useApi('GET /timesheets', userId ? { query: { week, userId } } : null);

/** Every person's week, for approvers; null waits. */
export const useWeeks = (week: string, approver: boolean) => useApi('GET /timesheets', approver ? { query: { week } } : null);
