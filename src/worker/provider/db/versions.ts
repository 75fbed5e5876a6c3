import type { Versioned } from '../../../shared/types';
import { StaleVersion } from '../errors/domain';
import { NOW_SQL, columnOf, conditionsSql, parameters, type Assignment, type Bind, type Condition, type MaybeCondition, type SqlStatement } from './sql';

/**
 * Record versions (docs/architecture.md#record-versions, migration 0008). Every UPDATE of an editable record adds
 * VERSION_BUMP to its SET; a PATCH that names the version it was edited from adds
 * `versionMatches(version)` to its WHERE (the expected version bound, null when the caller sent
 * none), so of two saves made from the same version only the first changes the row.
 */
export const VERSION_BUMP = 'version = version + 1';

/** The condition of a versioned write: the row is still at `expected`, or the caller named none. */
export const versionMatches =
  (expected: number | undefined): Condition =>
  (bind, row) =>
    `${columnOf(row, 'version')} = coalesce(${bind(expected ?? null)}, ${columnOf(row, 'version')})`;

/**
 * The condition that at least one of `set` would change: a PATCH of the values a record already
 * holds changes nothing, neither its version nor `updated_at`, so resending a form cannot make
 * everyone else's next save stale.
 */
export const changesAny =
  (set: Assignment[]): Condition =>
  (bind, row) =>
    set.map(({ column, value }) => `${columnOf(row, column)} IS NOT ${bind(value)}`).join(' OR ') || '0';

/** An UPDATE of one editable record: what it sets and when it may. */
export interface RecordUpdate {
  table: string;
  id: number;
  /** The fields the caller names, as `assignments` gives them. */
  set: Assignment[];
  /** SET items computed in SQL from the row and the values they bind (an amount from its quantity and price). */
  computed?: (string | ((bind: Bind) => string))[];
  /** The conditions beyond the id, over the row as the table: `versionMatches`, the write's own rules. */
  where?: MaybeCondition[];
  returning?: string;
}

/**
 * The one form of an UPDATE that edits a record: the caller's fields and the computed ones, then
 * `updated_at` and the version bump; WHERE the id (?1) and the conditions, rendered over the row
 * as `table` so a rule that reads other tables still names this row unambiguously.
 */
export const updateSql = ({ table, id, set, computed = [], where = [], returning }: RecordUpdate): SqlStatement => {
  const { params, bind } = parameters([id]);
  const items = [...set.map(({ column, value }) => `${column} = ${bind(value)}`), ...computed.map((item) => (typeof item === 'string' ? item : item(bind))), `updated_at = ${NOW_SQL}`, VERSION_BUMP];
  const conditions = conditionsSql(['id = ?1', ...where], bind, table);
  return { sql: `UPDATE ${table} SET ${items.join(', ')} WHERE ${conditions}${returning ? ` RETURNING ${returning}` : ''}`, params };
};

/** `updateSql` prepared on `db`. */
export const updateRecord = (db: D1Database, update: RecordUpdate) => {
  const { sql, params } = updateSql(update);
  return db.prepare(sql).bind(...params);
};

/**
 * For a write that changed nothing, read afterwards: throws StaleVersion when the record exists at
 * another version than `expected`; otherwise returns it (null when there is no such record) for
 * the caller to name the other reason.
 */
export const unlessStale = <T extends Versioned>(current: T | null, expected: number | undefined): T | null => {
  if (current && expected !== undefined && current.version !== expected) throw new StaleVersion(current);
  return current;
};
