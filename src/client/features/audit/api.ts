import type { Page, User } from '../../../shared/types';
import { auditPath, type AuditQuery } from '../../lib/audit/api';
import { downloadFromApi } from '../../lib/download';
import { today } from '../../lib/today';
import { useApi } from '../../lib/use-api';

export const usePeople = () => useApi<Page<User>>('users?pageSize=200');

/** The log as CSV with the page's filters (admin only, like the page). */
export const exportAudit = (query: Omit<AuditQuery, 'page' | 'pageSize'>) =>
  downloadFromApi(auditPath(query, 'audit.csv'), `audit-log-${today()}.csv`);
