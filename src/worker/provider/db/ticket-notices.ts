import type { AuditContext } from './audit';
import { conditionsSql, parameters, type Bind, type MaybeCondition } from './sql';

/**
 * Watchers and notifications of a ticket change (docs/architecture.md#notifications-watchers-and-mentions),
 * as statements for the caller to put in the same D1 batch as the change: they are stored with it
 * or not at all, and a notification that cannot be stored takes the change with it.
 *
 * Every statement reads who to tell inside the batch: only active people, never the actor (the
 * table refuses that too), and for an update only when the row is still at the version the UPDATE
 * expects, so a refused save tells nobody. `ticketId` null means the ticket the batch has just
 * inserted: the batch is one transaction, so it holds the highest id.
 */

/** Who made the change: a person, or nobody for mail from a ticket's requester (docs/architecture.md#mail). */
type Actor = AuditContext;

const TICKET = 'coalesce(?3, (SELECT max(id) FROM tickets))';
const activeIn = (list: string) => `u.id IN (SELECT value FROM json_each(${list})) AND u.is_active = 1`;
const NOTIFY = 'INSERT INTO notifications (user_id, kind, entity, entity_id, actor_id, title, request_id, comment_id)';
/** The comment the batch has just inserted on ticket ?3: the batch is one transaction, so it holds the highest id. */
const NEW_COMMENT = '(SELECT max(id) FROM ticket_comments WHERE ticket_id = ?3)';

/**
 * ?1 actor, ?2 request id, ?3 ticket id (null: the one just inserted); `sql` binds the
 * statement's own values after them.
 */
const statement = (db: D1Database, { actorId, requestId }: Actor, ticketId: number | null, sql: (bind: Bind) => string) => {
  const { params, bind } = parameters([actorId, requestId, ticketId]);
  const text = sql(bind);
  return db.prepare(text).bind(...params);
};

/**
 * For an update, the UPDATE's own conditions (its version among them) over the ticket `t`: a
 * notice exists exactly when the change does, as its audit entry does.
 */
const whenUpdated = (where: MaybeCondition[] | undefined, bind: Bind) => {
  const conditions = where ? conditionsSql(where, bind, 't') : '';
  return conditions ? ` AND ${conditions}` : '';
};

/**
 * The listed active people start watching the ticket (reporter, assignee, commenters, people
 * mentioned). `afterWrite`: placed right after the batch's write, and only if it changed a row.
 */
export const watchTicket = (db: D1Database, actor: Actor, ticketId: number | null, userIds: (number | null | undefined)[], afterWrite = false) =>
  statement(
    db,
    actor,
    ticketId,
    (bind) =>
      `INSERT OR IGNORE INTO ticket_watchers (ticket_id, user_id) SELECT ${TICKET}, u.id FROM users u
       WHERE ${activeIn(bind(JSON.stringify(userIds.filter((id): id is number => typeof id === 'number'))))}${afterWrite ? ' AND changes() > 0' : ''}`,
  );

/**
 * `assigned` to the new assignee. For an update (`where`: the UPDATE's conditions), it runs before
 * the UPDATE and only when the assignee really changes.
 */
export const notifyAssigned = (db: D1Database, actor: Actor, ticketId: number | null, assigneeId: number, where?: MaybeCondition[]) =>
  statement(db, actor, ticketId, (bind) => {
    const assignee = bind(assigneeId);
    return `${NOTIFY} SELECT u.id, 'assigned', 'ticket', t.id, ?1, t.title, ?2, NULL
     FROM tickets t JOIN users u ON ${activeIn(`json_array(${assignee})`)} AND u.id IS NOT ?1
     WHERE t.id = ${TICKET}${where ? ` AND t.assignee_id IS NOT ${assignee}` : ''}${whenUpdated(where, bind)}`;
  });

/**
 * `mentioned` to the active people the text names. For a description update (before the UPDATE),
 * only those the current description does not already mention. `inComment`: the text is the
 * comment the batch has just added, which the notice points at.
 */
export const notifyMentioned = (db: D1Database, actor: Actor, ticketId: number | null, userIds: number[], where?: MaybeCondition[], inComment = false) =>
  statement(
    db,
    actor,
    ticketId,
    (bind) => `${NOTIFY} SELECT u.id, 'mentioned', 'ticket', t.id, ?1, t.title, ?2, ${inComment ? NEW_COMMENT : 'NULL'}
     FROM tickets t JOIN users u ON ${activeIn(bind(JSON.stringify(userIds)))} AND u.id IS NOT ?1
     WHERE t.id = ${TICKET}${where ? ` AND instr(coalesce(t.description, ''), '(user:' || u.id || ')') = 0` : ''}${whenUpdated(where, bind)}`,
  );

/** A notice of `kind` to the ticket's active watchers but the actor, where `condition` holds too; `title` is SQL over `t`. */
const toWatchers = (kind: 'status' | 'commented', condition: string, title = 't.title') =>
  `${NOTIFY} SELECT u.id, '${kind}', 'ticket', t.id, ?1, ${title}, ?2, ${kind === 'commented' ? NEW_COMMENT : 'NULL'}
   FROM tickets t JOIN ticket_watchers w ON w.ticket_id = t.id JOIN users u ON u.id = w.user_id AND u.is_active = 1
   WHERE t.id = ?3 AND u.id IS NOT ?1 AND ${condition}`;

/** A stored status as the pages write it: `in_progress` reads "In progress". */
const statusWords = (status: string) => status.charAt(0).toUpperCase() + status.slice(1).replace(/_/g, ' ');

/**
 * `status` to the ticket's watchers, before an UPDATE (its conditions `where`) that moves it to
 * another status. Its title says where the ticket went, "Printer jam (now Resolved)", so the bell
 * tells the news without opening the ticket.
 */
export const notifyStatus = (db: D1Database, actor: Actor, ticketId: number, status: string, where: MaybeCondition[]) =>
  statement(db, actor, ticketId, (bind) =>
    toWatchers('status', `t.status IS NOT ${bind(status)}${whenUpdated(where, bind)}`, `t.title || ${bind(` (now ${statusWords(status)})`)}`),
  );

/** `commented` to the ticket's watchers, except the people the comment mentions (they are told that). */
export const notifyCommented = (db: D1Database, actor: Actor, ticketId: number, mentioned: number[]) =>
  statement(db, actor, ticketId, (bind) => toWatchers('commented', `u.id NOT IN (SELECT value FROM json_each(${bind(JSON.stringify(mentioned))}))`));
