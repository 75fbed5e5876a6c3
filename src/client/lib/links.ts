import type { AuditEntity } from '../../shared/schemas/audit';
import type { InvoiceSource } from '../../shared/schemas/invoices';
import type { SearchResultType } from '../../shared/schemas/search';
import { invoiceLinks } from './addresses/invoices';
import { lookupLinks } from './addresses/lookups';
import { ticketReportLink, timesheetWeekLink } from './addresses/reports';
import { ticketLinks } from './addresses/tickets';
import { userLink } from './addresses/users';
import { webhookLink } from './addresses/webhooks';

/**
 * Addresses that open one record, or one view, in its page: each written beside the parser of the
 * page that reads it (lib/addresses/), so a link and its page cannot disagree on a name.
 */
export const links = {
  /** The ticket list filtered as given. */
  tickets: ticketLinks.list,
  ticket: ticketLinks.ticket,
  user: userLink,
  company: lookupLinks.company,
  ticketCategory: lookupLinks.ticketCategory,
  calendar: lookupLinks.calendar,
  slaPolicy: lookupLinks.slaPolicy,
  statement: invoiceLinks.statement,
  line: invoiceLinks.line,
  ledgerMonth: invoiceLinks.ledgerMonth,
  ticketReport: ticketReportLink,
  timesheetWeek: timesheetWeekLink,
  webhook: webhookLink,
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
  calendar: links.calendar,
  sla_policy: links.slaPolicy,
  statement: links.statement,
  webhook: links.webhook,
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
