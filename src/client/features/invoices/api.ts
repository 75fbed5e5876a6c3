import type { InvoiceSource, LineChanges, StatementChanges, StatementRequest, StatementStatus } from '../../../shared/schemas/invoices';
import type { Company, InvoiceLine, LinePage, Page, Statement, StatementDetail } from '../../../shared/types';
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
/** `ifMatch`: the version the form was loaded with; a newer one on the server answers 412. */
export const updateLine = (id: number, changes: LineChanges, ifMatch?: number) =>
  apiRequest<InvoiceLine>(`invoices/lines/${id}`, { method: 'PATCH', body: changes, ifMatch });

export const exportLines = (source: InvoiceSource, { period, status }: Omit<LineFilters, 'page'>) =>
  downloadFromApi(withQuery(`invoices/${source}/lines.csv`, { period, status }), `${[source, period, status].filter(Boolean).join('-')}-lines.csv`);

export const useStatements = (page: number, pageSize = 25) => useApi<Page<Statement>>(withQuery('invoices/gifs/statements', { page, pageSize }));
export const useStatement = (id: number | undefined) => useApi<StatementDetail>(id ? `invoices/gifs/statements/${id}` : null);
export const generateStatement = (request: StatementRequest) => apiRequest<StatementDetail>('invoices/gifs/statements', { method: 'POST', body: request });
/** A status move; `from` is always the status the page shows, so a stale or repeated click gets 409. */
export const moveStatement = (id: number, changes: StatementChanges & { from: StatementStatus }) =>
  apiRequest<StatementDetail>(`invoices/gifs/statements/${id}`, { method: 'PATCH', body: changes });
/** The companies a statement can bill, for the generate dialog. */
export const useCompanies = () => useApi<Page<Company>>('companies?pageSize=200');
