import { ATTACHMENTS_PER_TICKET, type Attachment } from '../../../shared/schemas/attachments';
import { auditCreated, auditDeleted, jsonColumn, type AuditContext } from './audit';
import { rowsOf } from './rows';
import { fullName } from './sql';

interface AttachmentRow {
  id: number;
  ticket_id: number;
  comment_id: number | null;
  key: string;
  name: string;
  bytes: number;
  content_type: string;
  sha256: string;
  user_id: number | null;
  user_name: string;
  created_at: string;
}

const toAttachment = (row: AttachmentRow): Attachment => ({
  id: row.id,
  ticketId: row.ticket_id,
  commentId: row.comment_id,
  name: row.name,
  bytes: row.bytes,
  contentType: row.content_type,
  sha256: row.sha256,
  uploadedBy: row.user_id,
  uploadedByName: row.user_name,
  at: row.created_at,
});

/** The uploader's name; a file a ticket's requester mailed has no uploader among the staff and is named as the ticket names them. */
const UPLOADER = (user: string, ticket: string) => `coalesce((SELECT ${fullName()} FROM users WHERE id = ${user}),
    (SELECT coalesce(nullif(requester_name, ''), requester_email) FROM tickets WHERE id = ${ticket}), '') AS user_name`;
const SELECT = `SELECT f.*, ${UPLOADER('f.user_id', 'f.ticket_id')} FROM attachments f`;

// Attachments belong to their ticket's history.
const AUDIT = {
  entity: 'ticket',
  table: 'attachments',
  entityColumn: 'ticket_id',
  fields: {
    name: jsonColumn('name'),
    bytes: jsonColumn('bytes'),
    contentType: jsonColumn('content_type'),
    sha256: jsonColumn('sha256'),
    commentId: jsonColumn('comment_id'),
  },
} as const;

export const listAttachments = async (db: D1Database, ticketId: number) =>
  (await db.prepare(`${SELECT} WHERE f.ticket_id = ?1 ORDER BY f.created_at, f.id`).bind(ticketId).all<AttachmentRow>()).results.map(toAttachment);

/** An attachment with its R2 key, which the API never shows. */
export const findAttachment = async (db: D1Database, id: number) => {
  const row = await db.prepare(`${SELECT} WHERE f.id = ?1`).bind(id).first<AttachmentRow>();
  return row ? { attachment: toAttachment(row), key: row.key } : null;
};

export const attachmentCount = async (db: D1Database, ticketId: number) =>
  (await db.prepare('SELECT count(*) AS n FROM attachments WHERE ticket_id = ?1').bind(ticketId).first<{ n: number }>())?.n ?? 0;

export interface NewAttachment {
  ticketId: number;
  commentId: number | null;
  key: string;
  name: string;
  bytes: number;
  contentType: string;
  sha256: string;
}

/**
 * Records a stored file unless the ticket is gone, the comment is not on it or it already holds
 * ATTACHMENTS_PER_TICKET files: all three are read inside the INSERT, so uploads sent at once
 * cannot together pass the limit. Null when refused; the caller then removes the object.
 */
export const insertAttachment = async (db: D1Database, by: AuditContext, file: NewAttachment) => {
  const [inserted] = await db.batch([
    db
      .prepare(
        `INSERT INTO attachments (ticket_id, comment_id, key, name, bytes, content_type, sha256, user_id)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8
         WHERE EXISTS (SELECT 1 FROM tickets WHERE id = ?1)
           AND (?2 IS NULL OR EXISTS (SELECT 1 FROM ticket_comments WHERE id = ?2 AND ticket_id = ?1))
           AND (SELECT count(*) FROM attachments WHERE ticket_id = ?1) < ?9
         RETURNING *, ${UPLOADER('?8', '?1')}`,
      )
      .bind(file.ticketId, file.commentId, file.key, file.name, file.bytes, file.contentType, file.sha256, by.actorId, ATTACHMENTS_PER_TICKET),
    auditCreated(db, by, { ...AUDIT, action: 'attach' }),
  ]);
  const [row] = rowsOf<AttachmentRow>(inserted);
  return row ? toAttachment(row) : null;
};

/** Why an attachment was refused, read once the INSERT has said no. */
export const refusalOf = async (db: D1Database, ticketId: number, commentId: number | null) => {
  const row = await db
    .prepare(
      `SELECT EXISTS (SELECT 1 FROM tickets WHERE id = ?1) AS ticket,
              (?2 IS NULL OR EXISTS (SELECT 1 FROM ticket_comments WHERE id = ?2 AND ticket_id = ?1)) AS comment`,
    )
    .bind(ticketId, commentId)
    .first<{ ticket: number; comment: number }>();
  if (!row?.ticket) return 'ticket' as const;
  return row.comment ? ('full' as const) : ('comment' as const);
};

/**
 * Deletes an attachment when the deleter uploaded it or may delete anyone's: the rule is the
 * DELETE's WHERE, and the `detach` entry carries the same condition. Answers the removed file's
 * R2 key, or null when nothing was deleted.
 */
export const deleteAttachment = async (db: D1Database, id: number, by: AuditContext & { actorId: number }, mayDeleteAny: boolean) => {
  const [, deleted] = await db.batch([
    auditDeleted(db, by, { ...AUDIT, action: 'detach', id, where: [(bind) => `${bind(mayDeleteAny ? 1 : 0)} = 1 OR r.user_id = ${bind(by.actorId)}`] }),
    db.prepare('DELETE FROM attachments WHERE id = ?1 AND (?2 = 1 OR user_id = ?3) RETURNING key').bind(id, mayDeleteAny ? 1 : 0, by.actorId),
  ]);
  return rowsOf<{ key: string }>(deleted)[0]?.key ?? null;
};
