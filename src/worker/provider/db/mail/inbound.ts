/**
 * What the email() handler reads and writes in D1 (docs/architecture.md#mail): who sent a mail, where
 * a reply may go, and the `mail_in` audit entry every accepted mail leaves in the same batch as the
 * ticket or comment it made.
 */

/** A reply to a ticket closed longer ago than this is refused: the conversation is over. */
export const CLOSED_REPLY_DAYS = 30;

/** The active person whose address sent the mail, or null. */
export const activeSender = (db: D1Database, email: string) =>
  db.prepare('SELECT id FROM users WHERE email = ?1 COLLATE NOCASE AND is_active = 1').bind(email).first<{ id: number }>();

/** Why a reply to ticket `id` may not become a comment, or null when it may. */
export const replyRefusal = async (db: D1Database, id: number, attachments: number, perTicket: number) => {
  const ticket = await db
    .prepare(
      `SELECT status, resolved_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-${CLOSED_REPLY_DAYS} days') AS long_closed,
         (SELECT count(*) FROM attachments WHERE ticket_id = ?1) AS files
       FROM tickets WHERE id = ?1`,
    )
    .bind(id)
    .first<{ status: string; long_closed: number | null; files: number }>();
  if (!ticket) return `Ticket #${id} does not exist`;
  if (ticket.status === 'closed' && ticket.long_closed) return `Ticket #${id} was closed more than ${CLOSED_REPLY_DAYS} days ago`;
  if (ticket.files + attachments > perTicket) return `Ticket #${id} cannot take ${attachments} more files`;
  return null;
};

export interface MailFacts {
  from: string;
  to: string;
  subject: string;
  attachments: number;
}

/**
 * The mail's own audit entry, last in the batch: it names the ticket the batch's create or comment
 * entry named, so it is written exactly when they are.
 */
export const mailInEntry = (db: D1Database, actorId: number | null, requestId: string, mail: MailFacts) =>
  db
    .prepare(
      `INSERT INTO audit_log (actor_id, action, entity, entity_id, changes, request_id)
       SELECT ?1, 'mail_in', 'ticket', entity_id,
         json_object('from', json_array(NULL, ?2), 'to', json_array(NULL, ?3), 'subject', json_array(NULL, ?4), 'attachments', json_array(NULL, ?5)), ?6
       FROM audit_log WHERE request_id = ?6 AND entity = 'ticket' AND action IN ('create', 'comment') ORDER BY id DESC LIMIT 1`,
    )
    .bind(actorId, mail.from, mail.to, mail.subject, mail.attachments, requestId);
