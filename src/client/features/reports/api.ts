import type { TicketReportQuery, TimesheetQuery } from '../../../shared/schemas/reports';
import { useApi } from '../../lib/use-api';

export const useTimesheet = (query: TimesheetQuery) => useApi('GET /reports/timesheet', { query });

export const useTicketReport = (query: TicketReportQuery) => useApi('GET /reports/tickets', { query });
