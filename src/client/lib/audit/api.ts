import type { AuditAction, AuditEntity, AuditEntry, Page } from '../../../shared/types';
import { useApi, withQuery } from '../use-api';

/** The filters `GET audit` takes (DESIGN.md §6); one record's history is open to every role. */
export interface AuditQuery {
  entity?: AuditEntity;
  entityId?: number;
  actorId?: number;
  action?: AuditAction;
  /** UTC calendar days (YYYY-MM-DD), inclusive. */
  from?: string;
  to?: string;
  page: number;
  pageSize?: number;
}

export const auditPath = (query: Omit<AuditQuery, 'page' | 'pageSize'> & Partial<Pick<AuditQuery, 'page' | 'pageSize'>>, file = 'audit') =>
  withQuery(file, { ...query });

export const useAudit = (query: AuditQuery) => useApi<Page<AuditEntry>>(auditPath(query));
