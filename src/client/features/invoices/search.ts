import { LINE_STATUSES } from '../../../shared/schemas/invoices';
import { optionalId, optionalOneOf, optionalPage, useListSearch, useTypedSearch } from '../../lib/search';

const PERIOD = /^\d{4}-(0[1-9]|1[0-2])$/;

/** Ledger pages: `lineId` opens an invoice line; `period`, `status` and `page` are the list's view. */
export const parseLineSearch = (params: URLSearchParams) => ({
  lineId: optionalId(params.get('lineId')),
  period: PERIOD.test(params.get('period') ?? '') ? (params.get('period') as string) : undefined,
  status: optionalOneOf(LINE_STATUSES, params.get('status')),
  page: optionalPage(params.get('page')),
});
export const useLineSearch = () => useListSearch(parseLineSearch);

/** `/invoices/gifs/statement`: `statementId` opens a statement; `page` is the list's page; `overdue` keeps the overdue ones. */
export const parseStatementSearch = (params: URLSearchParams) => ({
  statementId: optionalId(params.get('statementId')),
  page: optionalPage(params.get('page')),
  overdue: params.get('overdue') === 'true' ? true : undefined,
});
export const useStatementSearch = () => useTypedSearch(parseStatementSearch);
