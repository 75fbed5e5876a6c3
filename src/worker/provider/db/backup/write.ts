import type { BackupResult } from '../../../../shared/types';
import { pruneExpiredWindows } from '../login-attempts';
import { NO_ACTOR, auditEvent, type AuditContext } from '../audit';
import { BACKUP_FORMAT, backupKey, makerTag, type BackupHeader, type BackupMaker, type Row } from './format';
import { gzipMember } from './gzip';
import { partUploader, tailKey } from './parts';
import { BackupRunning, D1_MAX_BYTES, checkRoom, databaseSize } from './capacity';
import { MAX_ATTEMPTS, claimRun, copyTable, dropCopies, endRun, isSecondRun, newRunId, runningRun, saveRun, startStatements, stuckRuns, type RunState } from './run';
import { ResumableSha256, emptySha256State } from './sha256';
import { BACKUP_MODE, DATA_TABLES, SCHEMA_VERSION_SQL, type DataTable } from '../tables';

/** Rows read per page; the backup's memory grows with this, not with the data. */
export const BACKUP_PAGE_ROWS = 5000;
/** R2 wants every part of a multipart upload but the last at least 5 MiB and all the same size. */
export const BACKUP_PART_BYTES = 5 * 1024 * 1024;

/**
 * What one invocation may spend before it saves its place and leaves the rest to the next:
 * Cloudflare allows 1,000 D1 queries per invocation and 30 s of CPU by default. A step stops
 * before its next page once either budget is spent; the clock also counts time waiting on D1 and
 * R2, so the CPU a step uses stays well under its wall time.
 */
export interface StepBudget {
  queries: number;
  ms: number;
}
export const STEP_BUDGET: StepBudget = { queries: 200, ms: 15_000 };
/** Queries a step makes besides its pages: claim, finishing (copies dropped, audit entry, end), save. */
const STEP_OVERHEAD_QUERIES = DATA_TABLES.length + 6;

export interface BackupOptions {
  madeBy: BackupMaker;
  /** Who asked, for the backup's audit entry; the schedule has no actor. */
  audit?: AuditContext;
  pageRows?: number;
  partBytes?: number;
  /** The ceiling the backup's copies must fit under beside the data (capacity.ts). */
  limitBytes?: number;
}

export type StepOutcome = { done: true; backup: BackupResult; madeBy: BackupMaker; queries: number } | { done: false; queries: number };

/**
 * Starts a backup: in one transaction it copies every table but the audit log and notes the
 * newest audit entry, so the backup is the database as it stood at that moment, whatever is
 * written while the copies are read. Writes wait only while the copies are made.
 *
 * One runs at a time, and only when its copies fit: a run already under way or too little room
 * is refused (409, capacity.ts). The first is settled by the run's own INSERT, which migration
 * 0017's index refuses while another run is going, so two starts at the same moment cannot both
 * pass; the read before it only gives the friendlier answer, with the size, without copying.
 */
export const startBackup = async (
  db: D1Database,
  bucket: R2Bucket,
  { madeBy, audit = NO_ACTOR, pageRows = BACKUP_PAGE_ROWS, partBytes = BACKUP_PART_BYTES, limitBytes = D1_MAX_BYTES }: BackupOptions,
) => {
  const { run, sizeBytes } = await runningRun(db);
  if (run) throw new BackupRunning(run.startedAt);
  checkRoom(databaseSize(sizeBytes, limitBytes));
  const runId = newRunId();
  const createdAt = new Date().toISOString();
  const key = backupKey(createdAt);
  const started = Date.now();
  const results = await db.batch<Row>([pruneExpiredWindows(db), db.prepare(SCHEMA_VERSION_SQL), ...startStatements(db, runId, key)]).catch(async (error: unknown) => {
    if (isSecondRun(error)) throw new BackupRunning((await runningRun(db)).run?.startedAt ?? null);
    throw error;
  });
  const copyMs = Date.now() - started;
  const version = results[1]?.results[0];
  const counts = results[results.length - 1]?.results[0] as Record<DataTable | 'audit_cap', number>;
  try {
    const total = DATA_TABLES.reduce((sum, table) => sum + counts[table], 0);
    const upload = await bucket.createMultipartUpload(key, {
      httpMetadata: { contentType: 'application/gzip' },
      customMetadata: { madeBy: makerTag(madeBy), rows: String(total) },
    });
    const state: RunState = {
      key,
      createdAt,
      madeBy,
      audit,
      schemaVersion: Number(version?.version ?? 0),
      counts,
      auditCap: Number(counts.audit_cap),
      pageRows,
      partBytes,
      uploadId: upload.uploadId,
      parts: [],
      tailBytes: 0,
      headerWritten: false,
      table: 0,
      after: 0,
      rows: 0,
      hash: emptySha256State(),
      manifest: {},
    };
    // The read before, the batch's statements, and the save.
    const queries = results.length + 2;
    await saveRun(db, runId, state, queries, copyMs).run();
    return { runId, queries, copyMs };
  } catch (error) {
    await db.batch([...dropCopies(db, runId), endRun(db, runId, 'failed', 0, (error as Error).message)]).catch(() => undefined);
    throw error;
  }
};

const lines = (table: DataTable, rows: Row[]) => {
  let text = '';
  for (const row of rows) text += `${JSON.stringify({ t: table, r: row })}\n`;
  return text;
};

const pageOf = (db: D1Database, runId: string, state: RunState, table: DataTable) =>
  BACKUP_MODE[table] === 'copied'
    ? db.prepare(`SELECT * FROM ${copyTable(runId, table)} WHERE rowid > ?1 ORDER BY rowid LIMIT ?2`).bind(state.after, state.pageRows)
    : db.prepare(`SELECT * FROM ${table} WHERE id > ?1 AND id <= ?3 ORDER BY id LIMIT ?2`).bind(state.after, state.pageRows, state.auditCap);

/**
 * One invocation's share of a backup: takes the run, writes lines from where the last step
 * stopped until the budget is spent or the data ends, and either saves its place or finishes the
 * file (manifest, upload completed, copies dropped, audit entry). `spent`: the queries this
 * invocation made before (starting the backup), which count against the same budget. Null when
 * another step holds the run or it has ended.
 */
export const stepBackup = async (db: D1Database, bucket: R2Bucket, runId: string, budget: StepBudget = STEP_BUDGET, spent = 0): Promise<StepOutcome | null> => {
  // A budget that leaves no room for a page after the overhead would take steps for ever.
  if (budget.queries <= STEP_OVERHEAD_QUERIES + 1) throw new Error(`A backup step needs a budget of more than ${STEP_OVERHEAD_QUERIES + 1} queries`);
  const started = Date.now();
  let queries = spent + 1;
  const state = await claimRun(db, runId);
  if (!state) return null;
  const upload = bucket.resumeMultipartUpload(state.key, state.uploadId);
  try {
    const tail = state.tailBytes ? new Uint8Array(await ((await bucket.get(tailKey(runId))) as R2ObjectBody).arrayBuffer()) : new Uint8Array(0);
    const parts = partUploader(upload, state.partBytes, state.parts, tail);
    const encoder = new TextEncoder();
    // Each page is a gzip member of its own (gzip.ts), so nothing is left half-compressed when a step ends.
    const write = async (bytes: Uint8Array) => parts.add(await gzipMember(bytes));

    const produce = async () => {
      if (!state.headerWritten) {
        const header: BackupHeader = { format: BACKUP_FORMAT, createdAt: state.createdAt, schemaVersion: state.schemaVersion, tables: [...DATA_TABLES] };
        await write(encoder.encode(`${JSON.stringify(header)}\n`));
        state.headerWritten = true;
      }
      const spent = () => queries + STEP_OVERHEAD_QUERIES >= budget.queries || Date.now() - started >= budget.ms;
      while (state.table < DATA_TABLES.length) {
        const table = DATA_TABLES[state.table] as DataTable;
        const hash = new ResumableSha256(state.hash);
        let finished = false;
        while (!spent()) {
          queries += 1;
          const rows = (await pageOf(db, runId, state, table).all<Row>()).results;
          if (rows.length) {
            const bytes = encoder.encode(lines(table, rows));
            hash.update(bytes);
            await write(bytes);
            state.rows += rows.length;
            state.after = BACKUP_MODE[table] === 'copied' ? state.after + rows.length : Number(rows[rows.length - 1]?.id);
          }
          if (rows.length < state.pageRows) {
            finished = true;
            break;
          }
        }
        if (!finished) {
          state.hash = hash.state();
          return false;
        }
        // The copies do not change, so every row counted when they were made has been read, and no other.
        if (state.rows !== state.counts[table]) throw new Error(`The backup read ${state.rows} rows of ${table} but counted ${state.counts[table]}`);
        state.manifest[table] = { rows: state.rows, sha256: hash.hex() };
        Object.assign(state, { table: state.table + 1, after: 0, rows: 0, hash: emptySha256State() });
      }
      await write(encoder.encode(`${JSON.stringify({ manifest: state.manifest })}\n`));
      return true;
    };

    const complete = await produce();
    if (!complete) {
      const paused = parts.pause();
      if (paused.tail.byteLength) await bucket.put(tailKey(runId), paused.tail);
      Object.assign(state, { parts: paused.parts, tailBytes: paused.tail.byteLength });
      queries += 1;
      await saveRun(db, runId, state, queries).run();
      return { done: false, queries };
    }

    const object = await parts.complete();
    queries += DATA_TABLES.length + 2;
    await recordBackup(db, bucket, state.audit, state.key, [...dropCopies(db, runId), endRun(db, runId, 'done', queries)]);
    if (state.tailBytes) await bucket.delete(tailKey(runId));
    const rows = Object.fromEntries(DATA_TABLES.map((table) => [table, state.manifest[table]?.rows ?? 0]));
    return { done: true, madeBy: state.madeBy, queries, backup: { key: state.key, createdAt: state.createdAt, bytes: object.size, rows } };
  } catch (error) {
    await upload.abort().catch(() => undefined);
    await bucket.delete(tailKey(runId)).catch(() => undefined);
    await db.batch([...dropCopies(db, runId), endRun(db, runId, 'failed', queries, (error as Error).message)]).catch(() => undefined);
    throw error;
  }
};

/**
 * Gives up the runs whose steps keep dying before they save their place (a step over the CPU
 * limit would die the same way every time): the upload is aborted, the copies are dropped, and
 * the run is marked failed, so the database does not hold the data twice for ever.
 */
export const abandonStuckRuns = async (db: D1Database, bucket: R2Bucket) => {
  const stuck = await stuckRuns(db);
  for (const { id, state, error } of stuck) {
    if (state.key && state.uploadId) await bucket.resumeMultipartUpload(state.key, state.uploadId).abort().catch(() => undefined);
    await bucket.delete(tailKey(id));
    await db.batch([...dropCopies(db, id), endRun(db, id, 'failed', 0, error ?? `gave up after ${MAX_ATTEMPTS} steps in a row ended without saving their place`)]);
  }
  return stuck.map(({ id }) => id);
};

/**
 * The backup's audit entry, written with the statements that end the run once the file is
 * complete. R2 and D1 share no transaction, so a file whose entry cannot be written is removed
 * again: no backup exists without its entry.
 */
const recordBackup = async (db: D1Database, bucket: R2Bucket, audit: AuditContext, key: string, ending: D1PreparedStatement[]) => {
  try {
    await db.batch([...ending, auditEvent(db, audit, { action: 'backup', entity: 'backup', entityId: null, changes: { key: [null, key] } })]);
  } catch (error) {
    await bucket.delete(key);
    throw error;
  }
};
