import type { AuditQuery as AuditFilters } from '../../../shared/schemas/audit';
import { useApi } from '../use-api';

/** The filters `GET audit` takes (docs/architecture.md#roles-and-the-audit-log); one record's history is open to every role. */
export type AuditQuery = Partial<AuditFilters> & { page: number };

export const useAudit = (query: AuditQuery) => useApi('GET /audit', { query });
