import { number, string, type InferType } from 'yup';
import { listQuerySchema } from './list';
import { calendarDate } from './tickets';

export const AUDIT_ENTITIES = ['user', 'ticket', 'company', 'ticket_category', 'invoice_line', 'statement', 'backup', 'session'] as const;
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];
export const AUDIT_ACTIONS = ['create', 'update', 'delete', 'comment', 'time', 'password', 'login', 'login_failed', 'backup'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

const filterId = () =>
  number().typeError('Must be a number').integer('Must be a whole number').positive('Must be positive').max(Number.MAX_SAFE_INTEGER, 'Too large');

/**
 * `GET audit` and `GET audit.csv`: one record's history (`entity` + `entityId`) or, for admins,
 * the whole log narrowed by person, action and an inclusive range of UTC days.
 */
export const auditQuerySchema = listQuerySchema.pick(['page', 'pageSize']).shape({
  entity: string<AuditEntity>().oneOf(AUDIT_ENTITIES, `Must be one of ${AUDIT_ENTITIES.join(', ')}`),
  entityId: filterId(),
  actorId: filterId(),
  action: string<AuditAction>().oneOf(AUDIT_ACTIONS, `Must be one of ${AUDIT_ACTIONS.join(', ')}`),
  from: calendarDate(),
  to: calendarDate().test('after-from', 'Must not be before from', function check(to) {
    const { from } = this.parent as { from?: string };
    return !from || !to || from <= to;
  }),
});
export type AuditQuery = InferType<typeof auditQuerySchema>;

/** Whether the query asks for one record's history, which every signed-in user may read. */
export const isRecordHistory = (query: Pick<AuditQuery, 'entity' | 'entityId'>) => query.entity !== undefined && query.entityId !== undefined;
