import type { AuditRequest } from '../../lib/audit/api';
import { apiDownload } from '../../lib/download';
import { apiPath } from '../../lib/endpoints';
import { today } from '../../lib/today';

/** The log as CSV with the page's filters (admin only, like the page). */
export const exportAudit = (query: Omit<AuditRequest, 'page' | 'pageSize'>) =>
  apiDownload(apiPath('GET /audit.csv', { query }), `audit-log-${today()}.csv`);
