import type { InvoiceSource } from '../../../shared/schemas/invoices';
import type { SearchResult } from '../../../shared/types';

/** A ledger page per invoice source; its `?lineId=` opens the line. */
export const LEDGER_PATHS: Record<InvoiceSource, string> = {
  autofi: '/invoices/autofi/',
  '3dtracking': '/invoices/3dtracking/',
  'gifs-sla': '/invoices/gifs/sla',
  'gifs-azure': '/invoices/gifs/azure',
};

/**
 * The address that opens a result's record in its page's drawer (docs/architecture.md#search-and-list-views). An invoice line's
 * ledger depends on the line's source, which the caller looks up first.
 */
export const addressOf = ({ type, id }: Pick<SearchResult, 'type' | 'id'>, source?: InvoiceSource): string => {
  switch (type) {
    case 'ticket':
      return `/tickets/?id=${id}`;
    case 'user':
      return `/users/?id=${id}`;
    case 'company':
      return `/lookups/companies/?id=${id}`;
    case 'ticket_category':
      return `/lookups/ticket-categories/?id=${id}`;
    case 'statement':
      return `/invoices/gifs/statement?statementId=${id}`;
    case 'invoice_line':
      return `${LEDGER_PATHS[source ?? 'autofi']}?lineId=${id}`;
  }
};

export const KIND_LABELS: Record<SearchResult['type'], string> = {
  ticket: 'Ticket',
  user: 'Person',
  company: 'Company',
  ticket_category: 'Category',
  statement: 'Statement',
  invoice_line: 'Invoice line',
};
