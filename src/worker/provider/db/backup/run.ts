import type { AuditContext } from '../audit';
import type { BackupMaker, Manifest } from './format';
import type { Sha256State } from './sha256';
import { BACKUP_COPY_PREFIX, BACKUP_MODE, DATA_TABLES, type DataTable } from '../tables';

/**
 * Where a backup has got to, kept in `backup_runs` (migration 0012) between invocations: the
 * file's identity, the upload's parts, the table being read, the last row read and the running
 * hash of that table's lines, and the manifest of the tables already done.
 */
export interface RunState {
  key: string;
  createdAt: string;
  madeBy: BackupMaker;
  audit: AuditContext;
  schemaVersion: number;
  counts: Record<DataTable, number>;
  /** The newest audit entry when the copies were taken; later ones are not read. */
  auditCap: number;
  pageRows: number;
  partBytes: number;
  uploadId: string;
  parts: R2UploadedPart[];
  tailBytes: number;
  headerWritten: boolean;
  /** Index into DATA_TABLES of the table being read. */
  table: number;
  /** The last rowid read of that table (its copy's rowid; the audit log's id). */
  after: number;
  rows: number;
  hash: Sha256State;
  manifest: Manifest;
}

/** A step holds its run this long; one that died frees it for the next step after that. */
export const STEP_LEASE_SECONDS = 15 * 60;
/** Steps in a row that died before saving their place; then the run is given up, not retried for ever. */
export const MAX_ATTEMPTS = 3;

/** A run's copy of a table: made in the transaction that starts it, dropped when it ends. */
export const copyTable = (runId: string, table: DataTable) => `${BACKUP_COPY_PREFIX}${runId}_${table}`;

/** Every table is read from its copy but the audit log, which only grows: it is read up to a cap. */
export const COPIED_TABLES = DATA_TABLES.filter((table) => BACKUP_MODE[table] === 'copied');

export const newRunId = () => crypto.randomUUID().replace(/-/g, '').slice(0, 16);

/**
 * The statements that start a run, one transaction: while it runs, and only then, writes wait.
 * The copies keep each table's rows in rowid order, so a copy's own rowid pages through them.
 */
export const startStatements = (db: D1Database, runId: string, key: string) => [
  db.prepare('INSERT INTO backup_runs (id, key, lease_until) VALUES (?1, ?2, unixepoch() + ?3)').bind(runId, key, STEP_LEASE_SECONDS),
  ...COPIED_TABLES.map((table) => db.prepare(`CREATE TABLE ${copyTable(runId, table)} AS SELECT * FROM ${table} ORDER BY rowid`)),
  db.prepare(
    `SELECT ${DATA_TABLES.map((table) =>
      BACKUP_MODE[table] === 'copied'
        ? `(SELECT count(*) FROM ${copyTable(runId, table)}) AS ${table}`
        : `(SELECT count(*) FROM ${table}) AS ${table}`,
    ).join(', ')}, coalesce((SELECT max(id) FROM audit_log), 0) AS audit_cap`,
  ),
];

export const dropCopies = (db: D1Database, runId: string) => COPIED_TABLES.map((table) => db.prepare(`DROP TABLE IF EXISTS ${copyTable(runId, table)}`));

/** Takes a run whose lease is free for one step; null when another step holds it or it ended. */
export const claimRun = async (db: D1Database, runId: string) => {
  const row = await db
    .prepare(
      "UPDATE backup_runs SET lease_until = unixepoch() + ?2, steps = steps + 1, attempts = attempts + 1 WHERE id = ?1 AND status = 'running' AND lease_until <= unixepoch() AND attempts < ?3 RETURNING state",
    )
    .bind(runId, STEP_LEASE_SECONDS, MAX_ATTEMPTS)
    .first<{ state: string }>();
  return row ? (JSON.parse(row.state) as RunState) : null;
};

/** Saves where the step stopped and frees the run for the next step. */
export const saveRun = (db: D1Database, runId: string, state: RunState, queries: number, copyMs?: number) =>
  db
    .prepare('UPDATE backup_runs SET state = ?2, lease_until = 0, attempts = 0, max_step_queries = max(max_step_queries, ?3), copy_ms = coalesce(?4, copy_ms) WHERE id = ?1')
    .bind(runId, JSON.stringify(state), queries, copyMs ?? null);

export const endRun = (db: D1Database, runId: string, status: 'done' | 'failed', queries: number, error: string | null = null) =>
  db
    .prepare("UPDATE backup_runs SET status = ?2, lease_until = 0, state = '{}', max_step_queries = max(max_step_queries, ?3), finished_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), error = ?4 WHERE id = ?1")
    .bind(runId, status, queries, error);

/** The oldest unfinished run that no step holds: a scheduled invocation takes it up. */
export const nextRunToContinue = (db: D1Database) =>
  db
    .prepare("SELECT id FROM backup_runs WHERE status = 'running' AND lease_until <= unixepoch() AND attempts < ?1 ORDER BY started_at LIMIT 1")
    .bind(MAX_ATTEMPTS)
    .first<string>('id');

/**
 * Runs whose last steps all died before saving their place, with where they had got to; and runs
 * ended without their upload and copies cleared (endRun empties the state, so a failed run that
 * still has one was ended elsewhere: by migration 0017, which let only one run go on).
 */
export const stuckRuns = async (db: D1Database) =>
  (
    await db
      .prepare(
        "SELECT id, state, error FROM backup_runs WHERE (status = 'running' AND lease_until <= unixepoch() AND attempts >= ?1) OR (status = 'failed' AND state <> '{}')",
      )
      .bind(MAX_ATTEMPTS)
      .all<{ id: string; state: string; error: string | null }>()
  ).results.map(({ id, state, error }) => ({ id, state: JSON.parse(state) as Partial<RunState>, error }));

export interface RunningRun {
  id: string;
  key: string;
  startedAt: string;
  state: Partial<RunState>;
}

/**
 * The backup under way, if any (migration 0017 allows one), and the database's size as D1 reports
 * it with every answer (`meta.size_after`, in bytes): one query for both.
 */
export const runningRun = async (db: D1Database) => {
  const { results, meta } = await db
    .prepare("SELECT id, key, started_at, state FROM backup_runs WHERE status = 'running' LIMIT 1")
    .all<{ id: string; key: string; started_at: string; state: string }>();
  const row = results[0];
  const run: RunningRun | null = row ? { id: row.id, key: row.key, startedAt: row.started_at, state: JSON.parse(row.state) as Partial<RunState> } : null;
  return { run, sizeBytes: meta.size_after };
};

/** Rows written so far and rows in all, of a run's state; the total is unknown until the copies are counted. */
export const progressOf = (state: Partial<RunState>) => {
  const done = Object.values(state.manifest ?? {}).reduce((sum, table) => sum + table.rows, 0) + (state.rows ?? 0);
  const total = state.counts ? DATA_TABLES.reduce((sum, table) => sum + Number(state.counts?.[table] ?? 0), 0) : null;
  return { rowsDone: done, rowsTotal: total };
};

/** D1's answer when a run's INSERT meets the one already running (migration 0017's index). */
export const isSecondRun = (error: unknown) => error instanceof Error && /UNIQUE constraint failed: backup_runs\.status/.test(error.message);
