import type { TicketWatchers } from '../../../shared/types';
import { fullName } from './sql';

/** Who watches a ticket (active people only, by name), and whether the asker does. */
export const listWatchers = async (db: D1Database, ticketId: number, userId: number): Promise<TicketWatchers> => {
  const { results } = await db
    .prepare(
      `SELECT u.id AS userId, ${fullName('u')} AS name FROM ticket_watchers w JOIN users u ON u.id = w.user_id
       WHERE w.ticket_id = ?1 AND u.is_active = 1 ORDER BY u.first_name, u.surname, u.id`,
    )
    .bind(ticketId)
    .all<{ userId: number; name: string }>();
  return { items: results, watching: results.some((watcher) => watcher.userId === userId) };
};

/** Starts or stops the person watching; not audited, it changes no record. */
export const setWatching = async (db: D1Database, ticketId: number, userId: number, watching: boolean) => {
  await db
    .prepare(watching ? 'INSERT OR IGNORE INTO ticket_watchers (ticket_id, user_id) VALUES (?1, ?2)' : 'DELETE FROM ticket_watchers WHERE ticket_id = ?1 AND user_id = ?2')
    .bind(ticketId, userId)
    .run();
};
