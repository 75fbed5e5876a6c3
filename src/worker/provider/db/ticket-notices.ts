import type { AuditContext } from './audit';

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

type Actor = AuditContext & { actorId: number };

const TICKET = 'coalesce(?3, (SELECT max(id) FROM tickets))';
const ACTIVE_IN = (param: string) => `u.id IN (SELECT value FROM json_each(${param})) AND u.is_active = 1`;
const NOTIFY = 'INSERT INTO notifications (user_id, kind, entity, entity_id, actor_id, title, request_id)';

/** ?1 actor, ?2 request id, ?3 ticket id (null: the one just inserted), then the statement's own. */
const bound = (db: D1Database, sql: string, { actorId, requestId }: Actor, ticketId: number | null, ...rest: unknown[]) =>
  db.prepare(sql).bind(actorId, requestId, ticketId, ...rest);

/** Guards an update's notices on the version the UPDATE expects (?5; null: whatever it is). */
const AT_VERSION = 't.version = coalesce(?5, t.version)';

/**
 * The listed active people start watching the ticket (reporter, assignee, commenters, people
 * mentioned). `afterWrite`: placed right after the batch's write, and only if it changed a row.
 */
export const watchTicket = (db: D1Database, actor: Actor, ticketId: number | null, userIds: (number | null | undefined)[], afterWrite = false) =>
  bound(
    db,
    `INSERT OR IGNORE INTO ticket_watchers (ticket_id, user_id) SELECT ${TICKET}, u.id FROM users u WHERE ${ACTIVE_IN('?4')}${afterWrite ? ' AND changes() > 0' : ''}`,
    actor,
    ticketId,
    JSON.stringify(userIds.filter((id): id is number => typeof id === 'number')),
  );

/**
 * `assigned` to the new assignee. For an update, it runs before the UPDATE and
 * only when the assignee really changes at the expected version.
 */
export const notifyAssigned = (db: D1Database, actor: Actor, ticketId: number | null, assigneeId: number, update?: { version: number | null }) =>
  bound(
    db,
    `${NOTIFY} SELECT u.id, 'assigned', 'ticket', t.id, ?1, t.title, ?2
     FROM tickets t JOIN users u ON ${ACTIVE_IN('json_array(?4)')} AND u.id <> ?1
     WHERE t.id = ${TICKET}${update ? ` AND t.assignee_id IS NOT ?4 AND ${AT_VERSION}` : ''}`,
    actor,
    ticketId,
    assigneeId,
    ...(update ? [update.version] : []),
  );

/**
 * `mentioned` to the active people the text names. For a description update (before the UPDATE),
 * only those the current description does not already mention.
 */
export const notifyMentioned = (db: D1Database, actor: Actor, ticketId: number | null, userIds: number[], update?: { version: number | null }) =>
  bound(
    db,
    `${NOTIFY} SELECT u.id, 'mentioned', 'ticket', t.id, ?1, t.title, ?2
     FROM tickets t JOIN users u ON ${ACTIVE_IN('?4')} AND u.id <> ?1
     WHERE t.id = ${TICKET}${update ? ` AND instr(coalesce(t.description, ''), '(user:' || u.id || ')') = 0 AND ${AT_VERSION}` : ''}`,
    actor,
    ticketId,
    JSON.stringify(userIds),
    ...(update ? [update.version] : []),
  );

/** `status` to the ticket's watchers, before an UPDATE that moves it to another status. */
export const notifyStatus = (db: D1Database, actor: Actor, ticketId: number, status: string, version: number | null) =>
  bound(
    db,
    `${NOTIFY} SELECT u.id, 'status', 'ticket', t.id, ?1, t.title, ?2
     FROM tickets t JOIN ticket_watchers w ON w.ticket_id = t.id JOIN users u ON u.id = w.user_id AND u.is_active = 1
     WHERE t.id = ?3 AND t.status IS NOT ?4 AND ${AT_VERSION} AND u.id <> ?1`,
    actor,
    ticketId,
    status,
    version,
  );

/** `commented` to the ticket's watchers, except the people the comment mentions (they are told that). */
export const notifyCommented = (db: D1Database, actor: Actor, ticketId: number, mentioned: number[]) =>
  bound(
    db,
    `${NOTIFY} SELECT u.id, 'commented', 'ticket', t.id, ?1, t.title, ?2
     FROM tickets t JOIN ticket_watchers w ON w.ticket_id = t.id JOIN users u ON u.id = w.user_id AND u.is_active = 1
     WHERE t.id = ?3 AND u.id <> ?1 AND u.id NOT IN (SELECT value FROM json_each(?4))`,
    actor,
    ticketId,
    JSON.stringify(mentioned),
  );
