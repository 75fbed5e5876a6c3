import type {
  ClosingLedger,
  InvoiceSource,
  Ledger,
  LineChanges,
  LinePayload,
  LineStatus,
  StatementChanges,
  StatementRequest,
  StatementState,
  StatementStatus,
} from '../../../shared/schemas/invoices';
import type { PaymentPayload } from '../../../shared/schemas/payments';
import type { ImportReport, ImportResult } from '../../../shared/types';
import { apiRequest } from '../../lib/api';
import { apiPath, callApi } from '../../lib/endpoints';
import { apiDownload } from '../../lib/download';
import { useApi } from '../../lib/use-api';

export interface LineFilters {
  period?: string;
  status?: LineStatus;
  page: number;
}

export const useLines = (source: InvoiceSource, filters: LineFilters) => useApi('GET /invoices/:source/lines', { params: { source }, query: filters });
export const useLine = (id: number | undefined) => useApi('GET /invoices/lines/:id', id ? { params: { id } } : null);
export const fetchLine = (id: number) => callApi('GET /invoices/lines/:id', { params: { id } });
/** `ifMatch`: the version the form was loaded with; a newer one on the server answers 412. */
export const updateLine = (id: number, changes: LineChanges, ifMatch?: number) =>
  callApi('PATCH /invoices/lines/:id', { params: { id }, body: changes, ifMatch });

export const createLine = (source: InvoiceSource, line: LinePayload) => callApi('POST /invoices/:source/lines', { params: { source }, body: line });
/** Only a draft line can go (409 otherwise). */
export const deleteLine = (id: number) => callApi('DELETE /invoices/lines/:id', { params: { id } });
/** Approves these drafts, all or none (409 naming those that are not drafts). */
export const approveLines = (ids: number[]) => callApi('POST /invoices/lines/approve', { body: { ids } });

export const exportLines = (source: InvoiceSource, { period, status }: Omit<LineFilters, 'page'>) =>
  apiDownload(
    apiPath('GET /invoices/:source/lines.csv', { params: { source }, query: { period, status } }),
    `${[source, period, status].filter(Boolean).join('-')}-lines.csv`,
  );

export interface StatementFilters {
  overdue?: boolean;
  state?: StatementState;
  /** The Autofi or 3D Tracking month invoices instead of the GIFS statements. */
  ledger?: ClosingLedger;
}
export const useStatements = (page: number, { overdue, state, ledger }: StatementFilters = {}, pageSize = 25) =>
  useApi('GET /invoices/gifs/statements', { query: { page, pageSize, overdue: overdue || undefined, state, ledger } });
/** The month's invoices that are not void, one per company; none while the month is open. */
export const useMonthInvoices = (ledger: ClosingLedger, period: string) =>
  useApi('GET /invoices/:source/periods/:period/invoices', { params: { source: ledger, period } });
/** How many lines of a month have `status`, and their sum (one line read for the totals); nothing is asked while `enabled` is false. */
export const useLineTotals = (source: InvoiceSource, period: string, status: LineStatus, enabled = true) =>
  useApi('GET /invoices/:source/lines', enabled ? { params: { source }, query: { period, status, page: 1, pageSize: 1 } } : null);
export const closeMonth = (ledger: ClosingLedger, period: string) => callApi('POST /invoices/:source/periods/:period/close', { params: { source: ledger, period } });
/** What issued documents still owe by age: every ledger's, or `ledger`'s alone. */
export const useAging = (ledger?: Ledger) => useApi('GET /invoices/gifs/statements/aging', { query: { ledger } });
export const recordPayment = (id: number, payment: PaymentPayload) => callApi('POST /invoices/gifs/statements/:id/payments', { params: { id }, body: payment });
export const reversePayment = (id: number, paymentId: number) => callApi('DELETE /invoices/gifs/statements/:id/payments/:paymentId', { params: { id, paymentId } });
export const useStatement = (id: number | undefined) => useApi('GET /invoices/gifs/statements/:id', id ? { params: { id } } : null);
export const generateStatement = (request: StatementRequest) => callApi('POST /invoices/gifs/statements', { body: request });
/** A status move; `from` is always the status the page shows, so a stale or repeated click gets 409. */
export const moveStatement = (id: number, changes: StatementChanges & { from: StatementStatus }) =>
  callApi('PATCH /invoices/gifs/statements/:id', { params: { id }, body: changes });

/** Sends a CSV file to a ledger: a dry run answers the check, an import the batch (or a 400 whose body is the check). */
export const sendImport = <T extends ImportReport | ImportResult>(source: InvoiceSource, file: Blob, fileName: string, dryRun: boolean) =>
  apiRequest<T>(apiPath('POST /invoices/:source/lines/import', { params: { source }, query: { dryRun: dryRun ? 'true' : 'false', fileName } }), {
    method: 'POST',
    // Browsers label CSV files differently (text/csv, application/vnd.ms-excel, nothing); the API reads text/csv.
    body: new Blob([file], { type: 'text/csv' }),
  });
/** A ledger's latest imports; nothing is asked while `enabled` is false (the import dialog is closed). */
export const useImports = (source: InvoiceSource, enabled = true) => useApi('GET /invoices/imports', enabled ? { query: { source, pageSize: 10 } } : null);
export const undoImport = (batchId: number) => callApi('DELETE /invoices/imports/:batchId', { params: { batchId } });
