import { parseDay } from '../../../shared/dates';
import { PAGES } from '../pages';
import { optionalId, optionalOneOf, useUrlState } from '../url-state';
import { withQuery } from '../endpoints';

export type RangeMode = 'week' | 'month';
const MODES: readonly RangeMode[] = ['week', 'month'];
const RANGE = /^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$/;

/** `/reports/timesheet/`: `view` (week or month) and `from`, a day inside the period shown. */
export const parseTimesheetParams = (params: URLSearchParams) => ({
  view: optionalOneOf(MODES, params.get('view')),
  from: parseDay(params.get('from')),
});
export const useTimesheetParams = () => useUrlState(parseTimesheetParams);

/** `/reports/ticket-report/`: `range` as `YYYY-MM-DD..YYYY-MM-DD`; the page checks it against the report's rules. */
export const parseTicketReportParams = (params: URLSearchParams) => {
  const [, from, to] = RANGE.exec(params.get('range') ?? '') ?? [];
  return { range: parseDay(from) && parseDay(to) ? `${from}..${to}` : undefined };
};
export const useTicketReportParams = () => useUrlState(parseTicketReportParams);

/** `/reports/sla/`: `range` as the ticket report has it, and `companyId` for one company's rows. */
export const parseSlaReportParams = (params: URLSearchParams) => ({ ...parseTicketReportParams(params), companyId: optionalId(params.get('companyId')) });
export const useSlaReportParams = () => useUrlState(parseSlaReportParams);

export const rangeValue = ({ from, to }: { from: string; to: string }) => `${from}..${to}`;
export const rangeParts = (range: string) => {
  const [from = '', to = ''] = range.split('..');
  return { from, to };
};

/** The ticket report over the days from `from` to `to`, in the form parseTicketReportParams reads. */
export const ticketReportLink = (from: string, to: string) => withQuery(`${PAGES.ticketReport}/`, { range: rangeValue({ from, to }) });

/** The timesheet report's week view of the week holding `day`, in the form parseTimesheetParams reads. */
export const timesheetWeekLink = (day: string) => withQuery(`${PAGES.timesheet}/`, { view: 'week', from: day });
