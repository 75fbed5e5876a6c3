import type { AuditQuery } from '../../../shared/schemas/audit';
import { useApi } from '../use-api';

/** The filters `GET audit` takes (docs/architecture.md#roles-and-the-audit-log); one record's history is open to every role. */
export type AuditRequest = Partial<AuditQuery> & { page: number };

export const useAudit = (query: AuditRequest | null) => useApi('GET /audit', query && { query });
