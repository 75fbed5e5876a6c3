import { AUDIT_CSV_END } from '../../../shared/schemas/audit';
import type { AuditRequest } from '../../lib/audit/api';
import { apiDownload } from '../../lib/download';
import { apiPath } from '../../lib/endpoints';
import { today } from '../../lib/today';

// The export's last line, written only after every entry (docs/api.md).
const END_LINE = new RegExp(`\\n${AUDIT_CSV_END}: \\d+ entr(y|ies)\\r\\n$`);

/** Whether an export arrived whole: it ends with its end line. */
export const isWholeAuditCsv = async (blob: Blob) => END_LINE.test(await blob.slice(-100).text());

/** The log as CSV with the page's filters (admin only, like the page); a file cut off on the way is an error, not saved. */
export const exportAudit = (query: Omit<AuditRequest, 'page' | 'pageSize'>) =>
  apiDownload(apiPath('GET /audit.csv', { query }), `audit-log-${today()}.csv`, isWholeAuditCsv);
