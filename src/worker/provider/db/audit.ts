import { SETUP_REQUEST_ID, type AuditQuery } from '../../../shared/schemas/audit';
import type { AuditAction, AuditEntity, AuditEntry } from '../../../shared/types';
import { nameAuditEntries } from './audit-names';
import { listSql, readPage, type ListSpec } from './pagination';
import { columnOf, conditionsSql, parameters, whereSql, type Condition, type MaybeCondition, type SqlStatement } from './sql';
import { Invalid } from '../errors/domain';
import { AUDIT_SELECT, toAuditEntry, type AuditRow } from './rows';

/**
 * The audit log (docs/architecture.md#roles-and-the-audit-log). Every function here returns one prepared INSERT for the caller
 * to put in the same `db.batch([...])` as the change it records: D1 runs a batch as one
 * transaction, so the change and its entry are kept together or not at all.
 *
 * Before and after values are computed by SQLite inside that transaction, never read ahead of
 * it: an update's entry is the batch's first statement and reads the row as it stands just
 * before the UPDATE that follows it (nothing can run in between), with the same WHERE, and diffs
 * it against the new values; a create's entry follows the INSERT and reads the new row back
 * (`last_insert_rowid()`); a delete's entry reads the row just before the DELETE. So an entry
 * always shows what the stored row held, and a write whose WHERE matched nothing leaves no entry.
 */

export interface AuditContext {
  /** The signed-in user; null for a failed sign-in and for the seed script. */
  actorId: number | null;
  requestId: string | null;
}

/** Writes made by the seed and demo scripts: no signed-in actor, no request. */
export const NO_ACTOR: AuditContext = { actorId: null, requestId: null };

/** Writes made by `npm run admin:create` when a deployment is set up: no actor, shown as "Setup". */
export const SETUP_ACTOR: AuditContext = { actorId: null, requestId: SETUP_REQUEST_ID };

/** API field → SQL giving that field of the row `r` as JSON text. */
export type AuditFields = Record<string, string>;

export const jsonColumn = (column: string) => `json_quote(r.${column})`;
export const jsonFlag = (column: string) => `CASE r.${column} WHEN 1 THEN 'true' WHEN 0 THEN 'false' ELSE 'null' END`;

interface FieldChange {
  field: string;
  before: string;
  after: string;
}

const NULL_JSON = "'null'";
const FIELD_NAME = /^[a-zA-Z][a-zA-Z0-9]*$/;

/**
 * `{ field: [before, after] }` for the fields whose values differ (compared as SQL values, so
 * JSON spelling cannot make equal values look changed); `marks` are shown as changed with no
 * values, which is how a password appears. json_patch drops the members set to null.
 */
const changesSql = (changes: FieldChange[], marks: readonly string[]) => {
  const members = changes.map(({ field, before, after }) => {
    if (!FIELD_NAME.test(field)) throw new Error(`not an audit field name: ${field}`);
    return `'${field}', json(CASE WHEN (${before}) ->> '$' IS (${after}) ->> '$' THEN NULL ELSE json_array(json(${before}), json(${after})) END)`;
  });
  let sql = members.length ? `json_patch('{}', json_object(${members.join(', ')}))` : "'{}'";
  for (const mark of marks) {
    if (!FIELD_NAME.test(mark)) throw new Error(`not an audit field name: ${mark}`);
    sql = `json_set(${sql}, '$.${mark}', json('[null,null]'))`;
  }
  return sql;
};

interface RowEntry {
  action: AuditAction;
  entity: AuditEntity;
  /** The row the entry reads, aliased `r`, chosen by `where`. */
  table: string;
  where: MaybeCondition[];
  /** The column of `r` holding the id of the record whose history this is. */
  entityColumn: string;
  changes: (bind: (value: unknown) => string) => FieldChange[];
  marks?: readonly string[];
  /** Leave no entry when nothing differs (an update that sent the current values). */
  skipUnchanged?: boolean;
}

const rowEntrySql = ({ actorId, requestId }: AuditContext, entry: RowEntry): SqlStatement => {
  const { params, bind } = parameters([actorId, entry.action, entry.entity, requestId]);
  const where = conditionsSql(entry.where, bind, 'r');
  const changes = changesSql(entry.changes(bind), entry.marks ?? []);
  return {
    sql: `INSERT INTO audit_log (actor_id, action, entity, entity_id, changes, request_id)
       SELECT ?1, ?2, ?3, e.entity_id, e.changes, ?4
       FROM (SELECT r.${entry.entityColumn} AS entity_id, ${changes} AS changes FROM ${entry.table} r WHERE ${where}) e
       ${entry.skipUnchanged ? "WHERE e.changes <> '{}'" : ''}`,
    params,
  };
};

const rowEntry = (db: D1Database, context: AuditContext, entry: RowEntry) => {
  const { sql, params } = rowEntrySql(context, entry);
  return db.prepare(sql).bind(...params);
};

interface Created {
  action?: AuditAction;
  entity: AuditEntity;
  table: string;
  fields: AuditFields;
  /** For comments and time entries: the ticket they belong to. */
  entityColumn?: string;
}

const createdEntry = ({ action = 'create', entity, table, fields, entityColumn = 'id' }: Created): RowEntry => ({
  action,
  entity,
  table,
  // changes(): an INSERT guarded by its own WHERE may add nothing, and last_insert_rowid()
  // would then still name an older row.
  where: ['r.rowid = last_insert_rowid() AND changes() > 0'],
  entityColumn,
  changes: () => Object.entries(fields).map(([field, sql]) => ({ field, before: NULL_JSON, after: sql })),
});

/** The entry for the row the batch's previous INSERT created: every field with a value, from null. */
export const auditCreated = (db: D1Database, context: AuditContext, created: Created) => rowEntry(db, context, createdEntry(created));

/** The same entry as SQL and values, for statements that run outside a D1 binding. */
export const auditCreatedSql = (context: AuditContext, created: Created) => rowEntrySql(context, createdEntry(created));

const idIs =
  (id: number): Condition =>
  (bind, row) =>
    `${columnOf(row, 'id')} = ${bind(id)}`;

interface Updated {
  action?: AuditAction;
  entity: AuditEntity;
  table: string;
  id: number;
  fields: AuditFields;
  /** The new values by API field; those not in `fields` or undefined are not recorded. */
  values: object;
  /**
   * The UPDATE's own conditions beyond the id (`versionMatches`, the write's rules), the very
   * objects its WHERE is rendered from, so the entry exists exactly when the change does.
   */
  where?: MaybeCondition[];
  marks?: readonly string[];
  /** For comments and time entries: the ticket they belong to. */
  entityColumn?: string;
}

/** The entry for an UPDATE that follows it in the batch: the fields whose values change. */
export const auditUpdated = (
  db: D1Database,
  context: AuditContext,
  { action = 'update', entity, table, id, fields, values, where = [], marks, entityColumn = 'id' }: Updated,
) =>
  rowEntry(db, context, {
    action,
    entity,
    table,
    where: [idIs(id), ...where],
    entityColumn,
    marks,
    skipUnchanged: true,
    changes: (bind) =>
      Object.entries(values)
        .filter(([field, value]) => value !== undefined && fields[field] !== undefined)
        .map(([field, value]) => ({ field, before: fields[field] as string, after: bind(JSON.stringify(value)) })),
  });

interface Deleted {
  action?: AuditAction;
  entity: AuditEntity;
  table: string;
  id: number;
  fields: AuditFields;
  /** For a payment: the statement it belongs to. */
  entityColumn?: string;
  /** The DELETE's own conditions beyond the id, so the entry exists exactly when the delete does. */
  where?: MaybeCondition[];
}

/** The entry for a DELETE that follows it in the batch: every field with a value, to null. */
export const auditDeleted = (db: D1Database, context: AuditContext, { action = 'delete', entity, table, id, fields, entityColumn = 'id', where = [] }: Deleted) =>
  rowEntry(db, context, {
    action,
    entity,
    table,
    where: [idIs(id), ...where],
    entityColumn,
    changes: () => Object.entries(fields).map(([field, sql]) => ({ field, before: sql, after: NULL_JSON })),
  });

interface Event {
  action: AuditAction;
  entity: AuditEntity;
  entityId: number | null;
  changes?: Record<string, [unknown, unknown]>;
}

/** An entry about no stored row: a sign-in attempt or a backup. */
export const auditEvent = (db: D1Database, { actorId, requestId }: AuditContext, { action, entity, entityId, changes = {} }: Event) =>
  db
    .prepare('INSERT INTO audit_log (actor_id, action, entity, entity_id, changes, request_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6)')
    .bind(actorId, action, entity, entityId, JSON.stringify(changes), requestId);

const filters = (query: AuditQuery): MaybeCondition[] => [
  query.id && ((bind) => `a.id = ${bind(query.id)}`),
  query.entity && ((bind) => `a.entity = ${bind(query.entity)}`),
  query.entityId && ((bind) => `a.entity_id = ${bind(query.entityId)}`),
  query.actorId && ((bind) => `a.actor_id = ${bind(query.actorId)}`),
  query.action && ((bind) => `a.action = ${bind(query.action)}`),
  query.from && ((bind) => `a.at >= ${bind(query.from)}`),
  query.to && ((bind) => `a.at < date(${bind(query.to)}, '+1 day')`),
];

/**
 * The SQL of one page of entries, newest first, and of their total. Ordered by (at, id): the
 * indexes end in `at` and SQLite keeps the rowid in every index, so a record's history, one
 * person's entries and the whole log each read an index in order (test/worker/query-plans.test.ts).
 */
const auditList = (query: AuditQuery): ListSpec => ({ select: AUDIT_SELECT, counted: 'audit_log a', orderBy: 'a.at DESC, a.id DESC', ...whereSql(filters(query)) });

export const auditListSql = (query: AuditQuery) => listSql(auditList(query), query);

export const listAudit = async (db: D1Database, query: AuditQuery) =>
  (await readPage(db, auditList(query), query, (rows: AuditRow[]) => nameAuditEntries(db, rows.map(toAuditEntry)))).page;

/**
 * What one CSV export may read. Cloudflare allows one Worker invocation 1,000 D1 calls and an
 * export is one invocation, so the export is planned before its first byte is sent and a range
 * that cannot fit is refused then, never cut off midway. Tests shrink these to reach the limits
 * with a few entries.
 */
export const auditExportLimits = {
  /** Entries per read: a million take 250 reads. */
  rows: 4_000,
  /**
   * Characters of `changes` per read, so a run of long entries (a ticket's description is up to
   * 10,000 characters, before and after) still holds only a few MB in memory at a time.
   */
  chars: 3_000_000,
  /** Reads one export may make: with the session check and the count, under 900 D1 calls. */
  reads: 890,
};

const AUDIT_EXPORT_TOO_LARGE = 'Narrow From and To';

/** One read's SQL: the next entries after `cursor`, as many as fit `rows` and `chars`. */
const exportChunkSql = (query: AuditQuery, last: number, cursor: { at: string; id: number } | null, rows: number, chars: number) => {
  const { where, params } = whereSql([
    ...filters(query),
    // Entries written while the export runs are not part of it, so its count stays exact.
    (bind) => `a.id <= ${bind(last)}`,
    // A row value, which SQLite reads as one range of the index rather than two branches.
    cursor && ((bind) => `(a.at, a.id) < (${bind(cursor.at)}, ${bind(cursor.id)})`),
  ]);
  // Every entry up to `rows`, then only those whose characters, counted from the first, fit
  // `chars`: always at least the first, so no entry is too long to export.
  const sql = `SELECT * FROM (
      SELECT e.*, row_number() OVER w AS n, sum(length(e.changes)) OVER w AS running
      FROM (${AUDIT_SELECT} ${where} ORDER BY a.at DESC, a.id DESC LIMIT ${rows}) e
      WINDOW w AS (ORDER BY e.at DESC, e.id DESC ROWS UNBOUNDED PRECEDING)
    ) WHERE n = 1 OR running <= ${chars} ORDER BY at DESC, id DESC`;
  return { sql, params };
};

/** The SQL of one read of an export, for test/worker/audit.test.ts to check its plan. */
export const auditExportChunkSql = exportChunkSql;

/**
 * Every matching entry, newest first, a chunk at a time after the last one sent (not by OFFSET,
 * which rereads what it skips), so an export of a million entries streams in bounded memory.
 *
 * One count first says how many reads the export needs at most: every read but the last is either
 * `rows` entries or cut short by `chars`, and a read cut short holds, with the entry that follows
 * it, more than `chars` characters, so there are fewer of those than twice the characters over
 * `chars`. A range needing more reads than the budget is refused (Invalid) before anything is sent.
 * Should the reads then fail or disagree with the count, the chunks throw, and the caller must
 * not end the file as if it were complete.
 */
export const exportAudit = async (db: D1Database, query: AuditQuery) => {
  const { rows, chars, reads } = auditExportLimits;
  const { where, params } = whereSql(filters(query));
  const found = await db
    .prepare(`SELECT count(*) AS entries, coalesce(sum(length(a.changes)), 0) AS chars, coalesce(max(a.id), 0) AS last FROM audit_log a ${where}`)
    .bind(...params)
    .first<{ entries: number; chars: number; last: number }>();
  const { entries, last } = found ?? { entries: 0, last: 0 };
  const needed = Math.ceil(entries / rows) + Math.floor((2 * (found?.chars ?? 0)) / chars);
  if (needed > reads) {
    const message = `The export would hold ${entries.toLocaleString('en-US')} entries, more than one file can take; narrow From and To to export the log in parts`;
    throw new Invalid(message, { from: [AUDIT_EXPORT_TOO_LARGE], to: [AUDIT_EXPORT_TOO_LARGE] });
  }
  async function* chunks(): AsyncGenerator<AuditEntry[]> {
    let cursor: { at: string; id: number } | null = null;
    let sent = 0;
    for (let reading = 1; sent < entries; reading++) {
      if (reading > needed) throw new Error(`audit export: ${sent} of ${entries} entries after ${needed} reads`);
      const { sql, params: values } = exportChunkSql(query, last, cursor, rows, chars);
      const read = (await db.prepare(sql).bind(...values).all<AuditRow>()).results.map(toAuditEntry);
      const end = read[read.length - 1];
      if (!end) throw new Error(`audit export: ${sent} of ${entries} entries, then none`);
      sent += read.length;
      yield read;
      cursor = { at: end.at, id: end.id };
    }
    if (sent !== entries) throw new Error(`audit export: ${sent} entries sent, ${entries} counted`);
  }
  return { entries, chunks: chunks() };
};
