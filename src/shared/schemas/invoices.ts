import { number, object, string, type InferType } from 'yup';
import { filledParagraph, line, recordId } from './fields';
import { listQuerySchema } from './list';

export const INVOICE_SOURCES = ['autofi', '3dtracking', 'gifs-sla', 'gifs-azure'] as const;
export type InvoiceSource = (typeof INVOICE_SOURCES)[number];
export const LINE_STATUSES = ['draft', 'approved', 'invoiced'] as const;
export type LineStatus = (typeof LINE_STATUSES)[number];
export const STATEMENT_STATUSES = ['open', 'issued', 'paid'] as const;
export type StatementStatus = (typeof STATEMENT_STATUSES)[number];

const PERIOD = /^\d{4}-(0[1-9]|1[0-2])$/;
export const period = () => string().matches(PERIOD, 'Must be a month as YYYY-MM');

// Whole units and whole cents keep every sum exact; the amount is always computed on the server.
const quantity = () => number().integer('Must be a whole number').min(0, 'Must not be negative').max(1_000_000, 'Too large');
const unitPriceCents = () =>
  number().integer('Must be whole cents').min(-100_000_000, 'Too small').max(100_000_000, 'Too large');
const lineStatus = () => string().oneOf(LINE_STATUSES, `Must be one of ${LINE_STATUSES.join(', ')}`);

export const createLineSchema = object({
  companyId: recordId().nullable(),
  period: period().required('Required'),
  description: filledParagraph(1000, 'Required').required('Required'),
  quantity: quantity().required('Required'),
  unitPriceCents: unitPriceCents().required('Required'),
  reference: line(100),
  status: lineStatus(),
});
export type LinePayload = InferType<typeof createLineSchema>;

export const updateLineSchema = object({
  description: filledParagraph(1000, 'Required'),
  quantity: quantity(),
  unitPriceCents: unitPriceCents(),
  reference: line(100),
  status: lineStatus(),
});
export type LineChanges = InferType<typeof updateLineSchema>;

export const lineListQuerySchema = listQuerySchema.shape({
  period: period(),
  status: lineStatus(),
});
export type LineListQuery = InferType<typeof lineListQuerySchema>;

export const createStatementSchema = object({ period: period().required('Required') });
export const updateStatementSchema = object({
  status: string().oneOf(['issued', 'paid'], 'Must be issued or paid').required('Required'),
});
export type StatementChanges = InferType<typeof updateStatementSchema>;
