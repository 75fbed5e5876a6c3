import { formatMonth } from '../../lib/format';
import { EDITABLE_LINE_STATUSES, type LineStatus, type StatementState } from '../../../shared/schemas/invoices';
import type { Statement } from '../../../shared/types';

export const LINE_STATUS_LABELS: Record<LineStatus, string> = { draft: 'Draft', approved: 'Approved', invoiced: 'Invoiced' };
export const LINE_STATUS_COLORS: Record<LineStatus, string> = { draft: 'gray', approved: 'blue', invoiced: 'green' };
/** The statuses a person can pick; `invoiced` comes from the line's statement being issued. */
export const LINE_STATUS_OPTIONS = EDITABLE_LINE_STATUSES.map((value) => ({ value, label: LINE_STATUS_LABELS[value] }));
/** The ledger's status filter offers every status a line can have. */
export const LINE_FILTER_OPTIONS = [...LINE_STATUS_OPTIONS, { value: 'invoiced', label: LINE_STATUS_LABELS.invoiced }];

export const STATEMENT_STATUS_LABELS: Record<StatementState, string> = { open: 'Open', issued: 'Issued', partial: 'Partially paid', paid: 'Paid', void: 'Void' };
export const STATEMENT_STATUS_COLORS: Record<StatementState, string> = { open: 'gray', issued: 'orange', partial: 'yellow', paid: 'green', void: 'red' };

/** What a statement or invoice shows as its status: an issued one with some money received is partially paid. */
export const statementState = (s: Pick<Statement, 'status' | 'paidCents' | 'balanceCents'>): StatementState =>
  s.status === 'issued' && s.paidCents > 0 && s.balanceCents > 0 ? 'partial' : s.status;

/** The last `count` months as YYYY-MM, newest first, for period pickers. */
export const recentPeriods = (count = 24, now = new Date()) =>
  Array.from({ length: count }, (_, i) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1)).toISOString().slice(0, 7));

export const PERIOD_OPTIONS = recentPeriods().map((value) => ({ value, label: formatMonth(value) }));

/** The month as YYYY-MM in UTC, as the API's periods are. */
export const currentPeriod = (now = new Date()) => now.toISOString().slice(0, 7);

/** Whether a period's month is over (UTC): issuing before then leaves later lines for a supplementary statement. */
export const periodHasEnded = (period: string, now = new Date()) => period < currentPeriod(now);
