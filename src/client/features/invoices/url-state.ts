import { LINE_STATUSES } from '../../../shared/schemas/invoices';
import { optionalId, optionalOneOf, optionalPage, useListParams, useUrlState } from '../../lib/url-state';

const PERIOD = /^\d{4}-(0[1-9]|1[0-2])$/;

/** Ledger pages: `lineId` opens an invoice line; `period`, `status` and `page` are the list's view. */
export const parseLineParams = (params: URLSearchParams) => ({
  lineId: optionalId(params.get('lineId')),
  period: PERIOD.test(params.get('period') ?? '') ? (params.get('period') as string) : undefined,
  status: optionalOneOf(LINE_STATUSES, params.get('status')),
  page: optionalPage(params.get('page')),
});
export const useLineParams = () => useListParams(parseLineParams);

/** `/invoices/gifs/statement`: `statementId` opens a statement; `page` is the list's page; `overdue` keeps the overdue ones. */
export const parseStatementParams = (params: URLSearchParams) => ({
  statementId: optionalId(params.get('statementId')),
  page: optionalPage(params.get('page')),
  overdue: params.get('overdue') === 'true' ? true : undefined,
});
export const useStatementParams = () => useUrlState(parseStatementParams);
