import { LINE_STATUSES, type LineStatus, type StatementStatus } from '../../../shared/schemas/invoices';

export const LINE_STATUS_LABELS: Record<LineStatus, string> = { draft: 'Draft', approved: 'Approved', invoiced: 'Invoiced' };
export const LINE_STATUS_COLORS: Record<LineStatus, string> = { draft: 'gray', approved: 'blue', invoiced: 'green' };
export const LINE_STATUS_OPTIONS = LINE_STATUSES.map((value) => ({ value, label: LINE_STATUS_LABELS[value] }));

export const STATEMENT_STATUS_LABELS: Record<StatementStatus, string> = { open: 'Open', issued: 'Issued', paid: 'Paid' };
export const STATEMENT_STATUS_COLORS: Record<StatementStatus, string> = { open: 'gray', issued: 'orange', paid: 'green' };

/** The last `count` months as YYYY-MM, newest first, for period pickers. */
export const recentPeriods = (count = 24, now = new Date()) =>
  Array.from({ length: count }, (_, i) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1)).toISOString().slice(0, 7));

export const periodLabel = (period: string) =>
  new Date(`${period}-01T00:00:00Z`).toLocaleDateString(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });

export const PERIOD_OPTIONS = recentPeriods().map((value) => ({ value, label: periodLabel(value) }));
