import { SETUP_REQUEST_ID, type AuditQuery } from '../../../shared/schemas/audit';
import type { AuditAction, AuditEntity, AuditEntry } from '../../../shared/types';
import { nameAuditEntries } from './audit-names';
import { listSql, readPage, type ListSpec } from './pagination';
import { columnOf, conditionsSql, parameters, whereSql, type Condition, type MaybeCondition, type SqlStatement } from './sql';
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

const EXPORT_CHUNK = 1000;

/**
 * Every matching entry, newest first, read a chunk at a time after the last one sent (not by
 * OFFSET, which rereads what it skips), so an export of a million entries streams in bounded
 * memory.
 */
export async function* allAudit(db: D1Database, query: AuditQuery): AsyncGenerator<AuditEntry[]> {
  let after: { at: string; id: number } | null = null;
  for (;;) {
    const cursor = after;
    const { where, params } = whereSql([
      ...filters(query),
      cursor &&
        ((bind) => {
          const at = bind(cursor.at);
          return `a.at < ${at} OR (a.at = ${at} AND a.id < ${bind(cursor.id)})`;
        }),
    ]);
    const rows = (
      await db.prepare(`${AUDIT_SELECT} ${where} ORDER BY a.at DESC, a.id DESC LIMIT ${EXPORT_CHUNK}`).bind(...params).all<AuditRow>()
    ).results.map(toAuditEntry);
    if (rows.length) yield rows;
    const last = rows[rows.length - 1];
    if (!last || rows.length < EXPORT_CHUNK) return;
    after = { at: last.at, id: last.id };
  }
}
