import type { AuditEntity } from '../../../shared/types';

/**
 * The address that opens an entry's record. Invoice lines are left out: an entry does not say which
 * ledger a line belongs to. Sign-ins lead to the person who signed in.
 */
const ADDRESS: Partial<Record<AuditEntity, (id: number) => string>> = {
  user: (id) => `/users/?id=${id}`,
  session: (id) => `/users/?id=${id}`,
  ticket: (id) => `/tickets/?id=${id}`,
  company: (id) => `/lookups/companies/?id=${id}`,
  ticket_category: (id) => `/lookups/ticket-categories/?id=${id}`,
  statement: (id) => `/invoices/gifs/statement?statementId=${id}`,
};

export const recordAddress = (entity: AuditEntity, id: number | null) => (id ? ADDRESS[entity]?.(id) : undefined);
