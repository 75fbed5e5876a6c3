import type { AuditEntity } from '../../shared/schemas/audit';
import type { InvoiceSource } from '../../shared/schemas/invoices';
import type { SearchResultType } from '../../shared/schemas/search';
import { withQuery } from './endpoints';
import { PAGES } from './pages';

/** Each invoice source's ledger page. */
const LEDGER_PAGES: Record<InvoiceSource, string> = {
  autofi: `${PAGES.autofi}/`,
  '3dtracking': `${PAGES.threeDTracking}/`,
  'gifs-sla': PAGES.gifsSla,
  'gifs-azure': PAGES.gifsAzure,
};

/** Addresses that open one record, or one view, in its page. */
export const links = {
  /** The ticket list filtered as given (the names the tickets page reads). */
  tickets: (view: { open?: true; mine?: true; overdue?: true; sort?: 'dueAt' }) => withQuery(`${PAGES.tickets}/`, view),
  ticket: (id: number) => `${PAGES.tickets}/?id=${id}`,
  user: (id: number) => `${PAGES.users}/?id=${id}`,
  company: (id: number) => `${PAGES.companies}/?id=${id}`,
  ticketCategory: (id: number) => `${PAGES.ticketCategories}/?id=${id}`,
  statement: (id: number) => `${PAGES.gifsStatements}?statementId=${id}`,
  /** An invoice line in its ledger's drawer. */
  line: (source: InvoiceSource, id: number) => `${LEDGER_PAGES[source]}?lineId=${id}`,
  /** A closing ledger's month, with the invoice it closed into. */
  ledgerMonth: (source: InvoiceSource, period: string) => `${LEDGER_PAGES[source]}?period=${period}`,
  /** The ticket report over the days from `from` to `to`. */
  ticketReport: (from: string, to: string) => `${PAGES.ticketReport}/?range=${from}..${to}`,
};

/** The kinds of record that have an address: a search result's type or an audit entry's entity. */
type RecordKind = SearchResultType | AuditEntity;

const RECORD_LINKS: Partial<Record<RecordKind, (id: number) => string>> = {
  ticket: links.ticket,
  user: links.user,
  // A sign-in leads to the person who signed in.
  session: links.user,
  company: links.company,
  ticket_category: links.ticketCategory,
  statement: links.statement,
};

/**
 * The address that opens a record in its page's drawer, or undefined when it has none. An invoice
 * line's ledger follows from its source, which only the caller may know (an audit entry does not).
 */
export const recordAddress = (kind: RecordKind, id: number | null, source?: InvoiceSource) => {
  if (!id) return undefined;
  if (kind === 'invoice_line') return source ? links.line(source, id) : undefined;
  return RECORD_LINKS[kind]?.(id);
};
