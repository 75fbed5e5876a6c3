import type { AuditAction, AuditEntity } from '../../../shared/types';
import type { ChangedEvent } from '../../../shared/live';
import { findLiveSession, type Session, type SessionRef } from './sessions';
import { fullName } from './sql';

/** Whose a socket is: the session check of every signed-in call, with the name presence shows. */
export const findLivePerson = (db: D1Database, session: SessionRef) =>
  findLiveSession<Session & { name: string }>(db, `role, ${fullName()} AS name`, session);

// The version a record has now, by the audit entity naming it; deleted records have none.
const VERSION_SQL = `CASE a.entity
  WHEN 'ticket' THEN (SELECT version FROM tickets WHERE id = a.entity_id)
  WHEN 'user' THEN (SELECT version FROM users WHERE id = a.entity_id)
  WHEN 'company' THEN (SELECT version FROM companies WHERE id = a.entity_id)
  WHEN 'ticket_category' THEN (SELECT version FROM ticket_categories WHERE id = a.entity_id)
  WHEN 'invoice_line' THEN (SELECT version FROM invoice_lines WHERE id = a.entity_id)
  WHEN 'statement' THEN (SELECT version FROM statements WHERE id = a.entity_id)
END`;

interface ChangeRow {
  entity: AuditEntity;
  entity_id: number;
  action: AuditAction;
  actor_id: number | null;
  actor_name: string | null;
  at: string;
  version: number | null;
}

/**
 * The records one request changed, read from the audit entries its batch wrote (every committed
 * write has them), one event per record, the last entry winning. The actor's recent entries are
 * read through the (actor_id, at) index; a request's batch committed moments ago.
 */
export const changesOfRequest = async (db: D1Database, actorId: number, requestId: string): Promise<ChangedEvent[]> => {
  const { results } = await db
    .prepare(
      `SELECT a.entity, a.entity_id, a.action, a.actor_id, a.at, ${VERSION_SQL} AS version,
              ${fullName('u')} AS actor_name
       FROM audit_log a LEFT JOIN users u ON u.id = a.actor_id
       WHERE a.actor_id = ?1 AND a.at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-5 minutes') AND a.request_id = ?2
         AND a.entity_id IS NOT NULL
       ORDER BY a.id`,
    )
    .bind(actorId, requestId)
    .all<ChangeRow>();
  const byRecord = new Map<string, ChangedEvent>();
  for (const row of results) {
    byRecord.delete(`${row.entity}:${row.entity_id}`);
    byRecord.set(`${row.entity}:${row.entity_id}`, {
      type: 'changed',
      entity: row.entity,
      id: row.entity_id,
      version: row.version,
      action: row.action,
      actorId: row.actor_id,
      actorName: row.actor_name,
      at: row.at,
    });
  }
  return [...byRecord.values()];
};
