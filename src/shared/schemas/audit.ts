import { string, type InferType } from 'yup';
import { listQuerySchema } from './list';
import { dateRange } from './filters';
import { filterId } from './ids';

export const AUDIT_ENTITIES = ['user', 'ticket', 'company', 'ticket_category', 'invoice_line', 'statement', 'backup', 'session', 'import', 'timesheet', 'webhook', 'calendar', 'sla_policy'] as const;
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];
export const AUDIT_ACTIONS = ['create', 'update', 'delete', 'comment', 'time', 'password', 'login', 'login_failed', 'backup',
  'comment_edit', 'comment_delete', 'time_edit', 'time_delete', 'import', 'attach', 'detach',
  'submit', 'approve', 'reject', 'reopen', 'passkey_add', 'passkey_remove', 'token_add', 'token_remove', 'mail_in'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * The request id of the entries `npm run admin:create` writes: they have no actor (nobody is
 * signed in when a deployment's first admin is made), and this marks them as made by setup.
 */
export const SETUP_REQUEST_ID = 'setup';

/**
 * `GET audit` and `GET audit.csv`: one record's history (`entity` + `entityId`) or, for admins,
 * the whole log narrowed by person, action and an inclusive range of UTC days.
 */
export const auditQuerySchema = listQuerySchema.pick(['page', 'pageSize']).shape({
  /** One entry by its id: a shared link to an entry that has moved off its page still opens it. */
  id: filterId(),
  entity: string<AuditEntity>().oneOf(AUDIT_ENTITIES, `Must be one of ${AUDIT_ENTITIES.join(', ')}`),
  entityId: filterId(),
  actorId: filterId(),
  action: string<AuditAction>().oneOf(AUDIT_ACTIONS, `Must be one of ${AUDIT_ACTIONS.join(', ')}`),
  ...dateRange(),
});
export type AuditQuery = InferType<typeof auditQuerySchema>;

/**
 * The last line of `GET audit.csv`, written only after every entry: a file without it was cut off
 * on the way, and the client refuses to save one. A `#` line, which CSV readers told to skip
 * comment lines skip, and which a spreadsheet shows as the file's last row.
 */
export const AUDIT_CSV_END = '# end of export';
export const auditCsvEnd = (entries: number) => `${AUDIT_CSV_END}: ${entries} ${entries === 1 ? 'entry' : 'entries'}\r\n`;

/** Whether the query asks for one record's history, which every signed-in user may read. */
export const isRecordHistory = (query: Pick<AuditQuery, 'entity' | 'entityId'>) => query.entity !== undefined && query.entityId !== undefined;
