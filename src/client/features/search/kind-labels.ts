import type { SearchResult } from '../../../shared/types';

export const KIND_LABELS: Record<SearchResult['type'], string> = {
  ticket: 'Ticket',
  user: 'Person',
  company: 'Company',
  ticket_category: 'Category',
  statement: 'Statement',
  invoice_line: 'Invoice line',
};
