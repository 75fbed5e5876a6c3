import { CLOSING_LEDGERS, LINE_STATUSES, STATEMENT_STATES, type InvoiceSource } from '../../../shared/schemas/invoices';
import { withQuery } from '../endpoints';
import { PAGES } from '../pages';
import { optionalId, optionalOneOf, optionalPage, useListParams, useUrlState } from '../url-state';

const PERIOD = /^\d{4}-(0[1-9]|1[0-2])$/;

/** Ledger pages: `lineId` opens an invoice line; `period`, `status` and `page` are the list's view. */
export const parseLineParams = (params: URLSearchParams) => ({
  lineId: optionalId(params.get('lineId')),
  period: PERIOD.test(params.get('period') ?? '') ? (params.get('period') as string) : undefined,
  status: optionalOneOf(LINE_STATUSES, params.get('status')),
  page: optionalPage(params.get('page')),
});
export const useLineParams = () => useListParams(parseLineParams);

/**
 * `/invoices/gifs/statement`: `statementId` opens a statement; `page` is the list's page;
 * `overdue` keeps the overdue ones, `state` those in one state ("Partially paid" included), and
 * `ledger` lists the Autofi or 3D Tracking month invoices instead of the GIFS statements.
 */
export const parseStatementParams = (params: URLSearchParams) => ({
  statementId: optionalId(params.get('statementId')),
  page: optionalPage(params.get('page')),
  overdue: params.get('overdue') === 'true' ? true : undefined,
  state: optionalOneOf(STATEMENT_STATES, params.get('state')),
  ledger: optionalOneOf(CLOSING_LEDGERS, params.get('ledger')),
});
export const useStatementParams = () => useUrlState(parseStatementParams);

/** Each invoice source's ledger page. */
const LEDGER_PAGES: Record<InvoiceSource, string> = {
  autofi: `${PAGES.autofi}/`,
  '3dtracking': `${PAGES.threeDTracking}/`,
  'gifs-sla': PAGES.gifsSla,
  'gifs-azure': PAGES.gifsAzure,
};

/** The billing pages' addresses, in the names parseLineParams and parseStatementParams read. */
export const invoiceLinks = {
  statement: (statementId: number) => withQuery(PAGES.gifsStatements, { statementId }),
  /** An invoice line in its ledger's drawer. */
  line: (source: InvoiceSource, lineId: number) => withQuery(LEDGER_PAGES[source], { lineId }),
  /** A closing ledger's month, with the invoice it closed into. */
  ledgerMonth: (source: InvoiceSource, period: string) => withQuery(LEDGER_PAGES[source], { period }),
};
