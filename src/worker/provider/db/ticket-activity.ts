import { MINUTES_PER_DAY, type CommentPayload, type TimeEntryPayload } from '../../../shared/schemas/tickets';
import { Conflict } from '../errors/domain';
import { auditCreated, jsonColumn, jsonFlag, type AuditContext } from './audit';
import { mentionedIds } from '../../../shared/mentions';
import { notifyCommented, notifyMentioned, watchTicket } from './ticket-notices';
import { queueNotificationMail } from './mail/notify';
import { COMMENT_SELECT, TIME_ENTRY_SELECT, rowsOf, toComment, toTimeEntry, written, type CommentRow, type TimeEntryRow } from './rows';
import { fullName } from './sql';
import { refuseLockedWeek, weekOpenSql } from './timesheets/lock';
import { commentAddedEvent } from './webhook-events';
import { recordFirstResponse, refreshClock } from './sla/clock-sql';

export const listComments = async (db: D1Database, ticketId: number) =>
  (
    await db
      .prepare(`${COMMENT_SELECT} WHERE m.ticket_id = ?1 ORDER BY m.created_at, m.id`)
      .bind(ticketId)
      .all<CommentRow>()
  ).results.map(toComment);

// Comments and time entries belong to their ticket's history.
export const AUDIT_COMMENT = { action: 'comment', entity: 'ticket', table: 'ticket_comments', entityColumn: 'ticket_id', fields: { body: jsonColumn('body') } } as const;
export const AUDIT_TIME = {
  action: 'time',
  entity: 'ticket',
  table: 'time_entries',
  entityColumn: 'ticket_id',
  fields: { workDate: jsonColumn('work_date'), minutes: jsonColumn('minutes'), note: jsonColumn('note'), billable: jsonFlag('billable') },
} as const;

/** The author of a comment or time entry is the signed-in actor of its audit entry. */
export type Author = AuditContext & { actorId: number };

/**
 * The people it mentions are told, the ticket's other watchers too, and the author and those
 * mentioned watch it from then on; a comment by anyone but the reporter is its first response.
 * `sentToRequester`: the batch also queues its mail to the ticket's requester (db/mail/public-reply.ts).
 */
export const insertComment = async (db: D1Database, ticketId: number, author: Author, { body }: CommentPayload, also: D1PreparedStatement[] = [], sentToRequester = false) => {
  const mentioned = mentionedIds(body);
  const [inserted] = await db.batch([
    db
      .prepare(
        `INSERT INTO ticket_comments (ticket_id, user_id, body, sent_to_requester) VALUES (?1, ?2, ?3, ?4)
         RETURNING *, (SELECT ${fullName()} FROM users WHERE id = ?2) AS user_name`,
      )
      .bind(ticketId, author.actorId, body, sentToRequester ? 1 : 0),
    auditCreated(db, author, AUDIT_COMMENT),
    notifyMentioned(db, author, ticketId, mentioned, undefined, true),
    notifyCommented(db, author, ticketId, mentioned),
    watchTicket(db, author, ticketId, [author.actorId, ...mentioned]),
    commentAddedEvent(db, ticketId, author),
    recordFirstResponse(db, ticketId, author.actorId),
    refreshClock(db, ticketId),
    queueNotificationMail(db, author.requestId),
    ...also,
  ]);
  return toComment(written(rowsOf<CommentRow>(inserted)[0], 'comment'));
};

export const listTimeEntries = async (db: D1Database, ticketId: number) =>
  (
    await db
      .prepare(`${TIME_ENTRY_SELECT} WHERE e.ticket_id = ?1 ORDER BY e.work_date DESC, e.id DESC`)
      .bind(ticketId)
      .all<TimeEntryRow>()
  ).results.map(toTimeEntry);

/**
 * Adds a time entry unless it would take the person's total for that day over 24 hours, or its
 * week is submitted or approved (docs/architecture.md#timesheets): both are read inside the
 * INSERT, so two entries, or an entry and a submit, sent at once cannot slip past them. The audit
 * entry is in the same batch and is written only when the row is.
 */
export const insertTimeEntry = async (db: D1Database, ticketId: number, author: Author, entry: TimeEntryPayload) => {
  const [inserted] = await db.batch([
    db
      .prepare(
        `INSERT INTO time_entries (ticket_id, user_id, work_date, minutes, note, billable)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6
         WHERE (SELECT coalesce(sum(minutes), 0) FROM time_entries WHERE user_id = ?2 AND work_date = ?3) + ?4 <= ?7
           AND ${weekOpenSql('?2', '?3')}
         RETURNING *, (SELECT ${fullName()} FROM users WHERE id = ?2) AS user_name`,
      )
      .bind(ticketId, author.actorId, entry.workDate, entry.minutes, entry.note ?? '', entry.billable === false ? 0 : 1, MINUTES_PER_DAY),
    auditCreated(db, author, AUDIT_TIME),
  ]);
  const [row] = rowsOf<TimeEntryRow>(inserted);
  if (!row) await refuseLockedWeek(db, author.actorId, [entry.workDate]);
  if (!row) throw new Conflict(`Time logged on ${entry.workDate} would come to more than 24 hours`);
  return toTimeEntry(row);
};
