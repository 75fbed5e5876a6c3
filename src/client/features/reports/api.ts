import type { TicketReport, TimesheetReport } from '../../../shared/types';
import { useApi, withQuery } from '../../lib/use-api';

export const useTimesheet = (query: { from: string; to: string; userId?: number; companyId?: number }) =>
  useApi<TimesheetReport>(withQuery('reports/timesheet', query));

export const useTicketReport = (query: { from: string; to: string; groupBy: string }) =>
  useApi<TicketReport>(withQuery('reports/tickets', query));
