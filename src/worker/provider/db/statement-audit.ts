import { jsonColumn } from './audit';

/** A statement's fields as its history records them, shared by its moves and its payments. */
export const STATEMENT_AUDIT = {
  entity: 'statement',
  table: 'statements',
  fields: {
    period: jsonColumn('period'),
    companyId: jsonColumn('company_id'),
    status: jsonColumn('status'),
    totalCents: jsonColumn('total_cents'),
    voidReason: jsonColumn('void_reason'),
  },
} as const;
