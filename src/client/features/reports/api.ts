import type { TicketReport, TimesheetReport } from '../../../shared/types';
import { useApi, withQuery } from '../../lib/use-api';

export const useTimesheet = (query: { from: string; to: string; userId?: number; companyId?: number }) =>
  useApi<TimesheetReport>(withQuery('reports/timesheet', query));

/** The ticket report, or nothing while the chosen range is not a valid one. */
export const useTicketReport = (query: { from: string; to: string; groupBy: string } | null) =>
  useApi<TicketReport>(query ? withQuery('reports/tickets', query) : null);
