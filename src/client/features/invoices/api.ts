import type { InvoiceSource, LineChanges } from '../../../shared/schemas/invoices';
import type { InvoiceLine, LinePage, Page, Statement, StatementDetail } from '../../../shared/types';
import { apiRequest } from '../../lib/api';
import { downloadFromApi } from '../../lib/download';
import { useApi, withQuery } from '../../lib/use-api';

export interface LineFilters {
  period?: string;
  status?: string;
  page: number;
}

export const useLines = (source: InvoiceSource, filters: LineFilters) => useApi<LinePage>(withQuery(`invoices/${source}/lines`, { ...filters }));
export const useLine = (id: number | undefined) => useApi<InvoiceLine>(id ? `invoices/lines/${id}` : null);
export const updateLine = (id: number, changes: LineChanges) => apiRequest<InvoiceLine>(`invoices/lines/${id}`, { method: 'PATCH', body: changes });

export const exportLines = (source: InvoiceSource, { period, status }: Omit<LineFilters, 'page'>) =>
  downloadFromApi(withQuery(`invoices/${source}/lines.csv`, { period, status }), `${[source, period, status].filter(Boolean).join('-')}-lines.csv`);

export const useStatements = (page: number, pageSize = 25) => useApi<Page<Statement>>(withQuery('invoices/gifs/statements', { page, pageSize }));
export const useStatement = (id: number | undefined) => useApi<StatementDetail>(id ? `invoices/gifs/statements/${id}` : null);
export const generateStatement = (period: string) => apiRequest<StatementDetail>('invoices/gifs/statements', { method: 'POST', body: { period } });
export const advanceStatement = (id: number, status: 'issued' | 'paid') =>
  apiRequest<StatementDetail>(`invoices/gifs/statements/${id}`, { method: 'PATCH', body: { status } });
