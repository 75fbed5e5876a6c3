import type { NotificationListQuery } from '../../../shared/schemas/notifications';
import type { AuditEntity, Notification, NotificationKind } from '../../../shared/types';
import { readPage, totalOf } from './pagination';
import { fullName, whereSql } from './sql';

const SELECT = `SELECT n.*, ${fullName('u')} AS actor_name FROM notifications n LEFT JOIN users u ON u.id = n.actor_id`;

interface NotificationRow {
  id: number;
  user_id: number;
  at: string;
  kind: NotificationKind;
  entity: AuditEntity;
  entity_id: number;
  title: string;
  actor_id: number | null;
  actor_name: string | null;
  read_at: string | null;
  comment_id: number | null;
}

const toNotification = (row: NotificationRow): Notification => ({
  id: row.id,
  at: row.at,
  kind: row.kind,
  entity: row.entity,
  entityId: row.entity_id,
  title: row.title,
  actorId: row.actor_id,
  actorName: row.actor_name,
  readAt: row.read_at,
  commentId: row.comment_id,
});

const UNREAD_SQL = 'SELECT count(*) AS total FROM notifications WHERE user_id = ?1 AND read_at IS NULL';

/** The notifications one request's batch wrote, each for its owner only; a scheduled run has no actor (null). */
export const notificationsOfRequest = async (db: D1Database, actorId: number | null, requestId: string) =>
  (await db.prepare(`${SELECT} WHERE n.request_id = ?1 AND n.actor_id IS ?2 ORDER BY n.id`).bind(requestId, actorId).all<NotificationRow>()).results.map(
    (row) => ({ userId: row.user_id, notification: toNotification(row) }),
  );

/** One page of the person's notifications, newest first, with their unread count. */
export const listNotifications = async (db: D1Database, userId: number, query: NotificationListQuery) => {
  const list = { select: SELECT, counted: 'notifications n', orderBy: 'n.id DESC', ...whereSql([(bind) => `n.user_id = ${bind(userId)}`, query.unread && 'n.read_at IS NULL']) };
  const { page, also } = await readPage(db, list, query, (rows: NotificationRow[]) => rows.map(toNotification), db.prepare(UNREAD_SQL).bind(userId));
  return { ...page, unread: totalOf(also[0]) };
};

/**
 * Marks the person's notifications read (the given ids, or all) and answers how many stay unread.
 * Ids of someone else's notifications match nothing. Not audited: it changes no record.
 */
export const markNotificationsRead = async (db: D1Database, userId: number, ids?: number[]) => {
  const idList = ids ? ` AND id IN (SELECT value FROM json_each(?2))` : '';
  const update = db.prepare(`UPDATE notifications SET read_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE user_id = ?1 AND read_at IS NULL${idList}`);
  const [, unread] = await db.batch([ids ? update.bind(userId, JSON.stringify(ids)) : update.bind(userId), db.prepare(UNREAD_SQL).bind(userId)]);
  return { unread: totalOf(unread) };
};
