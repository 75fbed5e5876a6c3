import type { AuditContext } from '../audit';
import { auditCreated } from '../audit';
import { COMMENT_SELECT, rowsOf, toComment, written, type CommentRow } from '../rows';
import { refreshClock } from '../sla/clock-sql';
import { AUDIT_COMMENT } from '../ticket-activity';
import { notifyCommented } from '../ticket-notices';
import { commentAddedEvent } from '../webhook-events';
import { queueNotificationMail } from './notify';

/**
 * Mail from outside the team (docs/architecture.md#mail): an address whose domain is one of an
 * active company's `emailDomains` may open a ticket for that company, and the ticket's requester
 * may answer on it. Their comment has no author among the staff: it carries their address, is no
 * first response, and tells the ticket's watchers like any comment.
 */

/** The active company that holds the address's domain, or null. */
export const companyOfAddress = (db: D1Database, address: string) =>
  db
    .prepare('SELECT c.id FROM company_email_domains d JOIN companies c ON c.id = d.company_id AND c.is_active = 1 WHERE d.domain = ?1')
    .bind(address.slice(address.lastIndexOf('@') + 1))
    .first<{ id: number }>();

/** The requester's address of a ticket, or null (no such ticket, or none by mail). */
export const requesterOf = async (db: D1Database, ticketId: number) =>
  (await db.prepare('SELECT requester_email FROM tickets WHERE id = ?1').bind(ticketId).first<{ requester_email: string | null }>())?.requester_email ?? null;

/** The requester's comment, with the batch's other statements (the mail's own audit entry) `also`. */
export const insertRequesterComment = async (db: D1Database, ticketId: number, from: string, body: string, requestId: string, also: D1PreparedStatement[]) => {
  const nobody: AuditContext = { actorId: null, requestId };
  const [inserted] = await db.batch([
    db.prepare(`INSERT INTO ticket_comments (ticket_id, body, external_email) VALUES (?1, ?2, ?3) RETURNING id`).bind(ticketId, body, from),
    auditCreated(db, nobody, AUDIT_COMMENT),
    notifyCommented(db, nobody, ticketId, []),
    commentAddedEvent(db, ticketId, nobody),
    refreshClock(db, ticketId),
    queueNotificationMail(db, requestId),
    ...also,
  ]);
  const { id } = written(rowsOf<{ id: number }>(inserted)[0], 'comment');
  return toComment(written(await db.prepare(`${COMMENT_SELECT} WHERE m.id = ?1`).bind(id).first<CommentRow>(), 'comment'));
};
