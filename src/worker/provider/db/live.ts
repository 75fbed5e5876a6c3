import type { AuditAction, AuditEntity } from '../../../shared/types';
import { LIVE_CHANGES_MAX, type ChangedEvent, type LiveChanges } from '../../../shared/live';
import { findLiveSession, type Session, type SessionRef } from './sessions';
import { fullName } from './sql';

// The newest audit entry's id: the sequence every write takes (docs/architecture.md#live-updates).
const LATEST_SEQ = '(SELECT coalesce(max(id), 0) FROM audit_log)';

/**
 * Whose a socket is: the session check of every signed-in call, with the name presence shows and
 * the newest seq, which the socket's hello carries (max(id) of the table is one index step).
 */
export const findLivePerson = (db: D1Database, session: SessionRef) =>
  findLiveSession<Session & { name: string; seq: number }>(db, `role, ${fullName()} AS name, ${LATEST_SEQ} AS seq`, session);

// The version a record has now, by the audit entity naming it; deleted records have none.
const VERSION_SQL = `CASE a.entity
  WHEN 'ticket' THEN (SELECT version FROM tickets WHERE id = a.entity_id)
  WHEN 'user' THEN (SELECT version FROM users WHERE id = a.entity_id)
  WHEN 'company' THEN (SELECT version FROM companies WHERE id = a.entity_id)
  WHEN 'ticket_category' THEN (SELECT version FROM ticket_categories WHERE id = a.entity_id)
  WHEN 'invoice_line' THEN (SELECT version FROM invoice_lines WHERE id = a.entity_id)
  WHEN 'statement' THEN (SELECT version FROM statements WHERE id = a.entity_id)
  WHEN 'calendar' THEN (SELECT version FROM calendars WHERE id = a.entity_id)
  WHEN 'sla_policy' THEN (SELECT version FROM sla_policies WHERE id = a.entity_id)
END`;

interface ChangeRow {
  seq: number;
  entity: AuditEntity;
  entity_id: number;
  action: AuditAction;
  actor_id: number | null;
  actor_name: string | null;
  at: string;
  version: number | null;
}

// Entries, not records, are counted: the walk stops there whatever they name.
const LIMIT_ENTRIES = LIVE_CHANGES_MAX;

const CHANGE_COLUMNS = `a.id AS seq, a.entity, a.entity_id, a.action, a.actor_id, a.at, ${VERSION_SQL} AS version, ${fullName('u')} AS actor_name`;

/** One event a record, the last entry winning, in the order of their last entries; `seq` is the record's last entry's unless given. */
const byRecord = (rows: ChangeRow[], seq?: number): ChangedEvent[] => {
  const events = new Map<string, ChangedEvent>();
  for (const row of rows) {
    const key = `${row.entity}:${row.entity_id}`;
    events.delete(key);
    events.set(key, {
      type: 'changed',
      entity: row.entity,
      id: row.entity_id,
      version: row.version,
      action: row.action,
      actorId: row.actor_id,
      actorName: row.actor_name,
      at: row.at,
      seq: seq ?? row.seq,
    });
  }
  return [...events.values()];
};

/**
 * The records one request changed, read from the audit entries its batch wrote (every committed
 * write has them), one event per record, the last entry winning, each carrying the write's highest
 * seq. The actor's recent entries (mail from a requester has none: NULL) are read through the (actor_id, at) index; a request's batch
 * committed moments ago.
 */
export const changesOfRequest = async (db: D1Database, actorId: number | null, requestId: string): Promise<ChangedEvent[]> => {
  const { results } = await db
    .prepare(
      `SELECT ${CHANGE_COLUMNS}
       FROM audit_log a LEFT JOIN users u ON u.id = a.actor_id
       WHERE a.actor_id IS ?1 AND a.at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-5 minutes') AND a.request_id = ?2
         AND a.entity_id IS NOT NULL
       ORDER BY a.id`,
    )
    .bind(actorId, requestId)
    .all<ChangeRow>();
  return byRecord(results, results.at(-1)?.seq);
};

/**
 * The entries after ?1 naming one of `entities` (bound from ?2 on), walked by id: the primary key,
 * no sort. The unary `+` keeps SQLite off the (entity, entity_id, at) index, which it would
 * otherwise pick for the IN list, reading every ticket entry ever written to find the last few.
 */
export const changesAfterSql = (entities: number) => `SELECT ${CHANGE_COLUMNS}
  FROM audit_log a LEFT JOIN users u ON u.id = a.actor_id
  WHERE a.id > ?1 AND +a.entity_id IS NOT NULL AND +a.entity IN (${Array.from({ length: entities }, (_, index) => `?${index + 2}`).join(', ') || 'NULL'})
  ORDER BY a.id
  LIMIT ${LIMIT_ENTRIES + 1}`;

/**
 * What changed after `after` among the entities the caller is told of (docs/api.md#live-changes):
 * the newest seq and the entries after `after` up to it, read in one batch so both see the same
 * committed writes. The entries are walked by id (the primary key), at most LIMIT_ENTRIES of them;
 * one more than that means too many, and the caller re-reads everything; so does an `after` past
 * the newest entry.
 */
export const changesAfter = async (db: D1Database, after: number, entities: readonly AuditEntity[]): Promise<LiveChanges> => {
  const [latest, entries] = await db.batch([
    db.prepare(`SELECT ${LATEST_SEQ} AS seq`),
    db.prepare(changesAfterSql(entities.length)).bind(after, ...entities),
  ]);
  const seq = (latest?.results[0] as { seq: number } | undefined)?.seq ?? 0;
  const rows = (entries?.results ?? []) as ChangeRow[];
  // Past the newest entry: the log was restored from a backup since, so what the client shows may be gone.
  if (rows.length > LIMIT_ENTRIES || after > seq) return { seq, reload: true, changes: [] };
  return { seq, reload: false, changes: byRecord(rows) };
};
