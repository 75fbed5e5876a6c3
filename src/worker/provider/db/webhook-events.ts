import type { AuditContext } from './audit';
import { webhookOutbox } from './webhooks';

/**
 * The outbox statements of each event (docs/api.md#webhook-events), for the batches of the
 * writes that cause them. Each builds its record in SQL from the committed row, in the shape the
 * API answers it (names of linked records as well as their ids), so a delivery is exactly what
 * was written, whatever happens to the row later.
 */

const PERSON = (column: string) => `(SELECT first_name || ' ' || surname FROM users WHERE id = t.${column})`;

const ticketJson = (where: string) =>
  // Built in two calls: D1 takes at most 32 arguments per SQL function (json_patch would drop nulls).
  `SELECT json_set(
     json_object('id', t.id, 'title', t.title, 'description', t.description, 'status', t.status, 'priority', t.priority,
       'companyId', t.company_id, 'companyName', (SELECT name FROM companies WHERE id = t.company_id),
       'categoryId', t.category_id, 'categoryName', (SELECT name FROM ticket_categories WHERE id = t.category_id)),
     '$.assigneeId', t.assignee_id, '$.assigneeName', ${PERSON('assignee_id')}, '$.reporterId', t.reporter_id, '$.reporterName', ${PERSON('reporter_id')},
     '$.dueAt', t.due_at, '$.resolvedAt', t.resolved_at, '$.createdAt', t.created_at, '$.updatedAt', t.updated_at, '$.version', t.version)
   FROM tickets t WHERE ${where}`;

/** After the ticket's `create` audit entry: the entry names the new ticket. */
export const ticketCreatedEvent = (db: D1Database, audit: AuditContext) =>
  webhookOutbox(db, 'ticket.created', ticketJson("t.id = (SELECT entity_id FROM audit_log WHERE rowid = last_insert_rowid() AND entity = 'ticket')"), [], audit);

/**
 * At the end of the update's batch: only when the update changed the ticket, which is exactly when
 * the batch wrote its `update` entry (the entry reads the row with the UPDATE's own conditions).
 */
export const ticketUpdatedEvent = (db: D1Database, id: number, audit: AuditContext) =>
  webhookOutbox(
    db,
    'ticket.updated',
    ticketJson("t.id = ?4 AND EXISTS (SELECT 1 FROM audit_log WHERE request_id = ?3 AND action = 'update' AND entity = 'ticket' AND entity_id = ?4)"),
    [id],
    audit,
  );

/**
 * At the end of a comment's batch: the newest comment of the author on the ticket is the one the
 * batch inserted (the batch is one transaction), present only when the INSERT ran.
 */
export const commentAddedEvent = (db: D1Database, ticketId: number, audit: AuditContext) =>
  webhookOutbox(
    db,
    'ticket.comment_added',
    `SELECT json_object('id', c.id, 'ticketId', c.ticket_id, 'userId', c.user_id, 'userName', (SELECT first_name || ' ' || surname FROM users WHERE id = c.user_id),
       'body', c.body, 'createdAt', c.created_at, 'updatedAt', c.updated_at, 'version', c.version)
     FROM ticket_comments c WHERE c.id = (SELECT max(id) FROM ticket_comments WHERE ticket_id = ?4 AND user_id = ?2)
       AND EXISTS (SELECT 1 FROM audit_log WHERE request_id = ?3 AND action = 'comment' AND entity_id = ?4)`,
    [ticketId],
    audit,
  );

/** At the end of a user's update batch that set isActive false: only when that update took effect. */
export const userDeactivatedEvent = (db: D1Database, id: number, audit: AuditContext) =>
  webhookOutbox(
    db,
    'user.deactivated',
    `SELECT json_object('id', u.id, 'firstName', u.first_name, 'surname', u.surname, 'email', u.email, 'isActive', json('false'), 'role', u.role,
       'createdAt', u.created_at, 'updatedAt', u.updated_at, 'version', u.version)
     FROM users u WHERE u.id = ?4 AND u.is_active = 0
       AND EXISTS (SELECT 1 FROM audit_log WHERE request_id = ?3 AND entity = 'user' AND entity_id = ?4 AND changes ->> '$.isActive' IS NOT NULL)`,
    [id],
    audit,
  );
