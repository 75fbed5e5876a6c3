import type { BackupResult } from '../../../shared/types';
import { pruneExpiredWindows } from '../auth/rate-limit';
import { BACKUP_FORMAT, backupKey, makerTag, workerdSha256, type BackupHeader, type BackupMaker, type Manifest, type Row } from './backup-format';
import { NO_ACTOR, auditEvent, type AuditContext } from './audit';
import { BACKUP_MODE, DATA_TABLES, SCHEMA_VERSION_SQL, type DataTable } from './tables';

/** Rows read per page of a locked table; the backup's memory grows with this, not with the data. */
export const BACKUP_PAGE_ROWS = 5000;
/** R2 wants every part of a multipart upload but the last at least 5 MiB and all the same size. */
export const BACKUP_PART_BYTES = 5 * 1024 * 1024;
/** A lock not renewed for this long frees the database; every page renews it. */
const LEASE_SECONDS = 60;

export interface BackupOptions {
  madeBy: BackupMaker;
  /** Who asked, for the backup's audit entry; the schedule has no actor. */
  audit?: AuditContext;
  pageRows?: number;
  partBytes?: number;
}

interface Lock {
  token: string;
  schemaVersion: number;
  counts: Record<DataTable, number>;
  snapshots: Map<DataTable, Row[]>;
  /** For the capped tables: the newest id when the lock was taken; later rows are not read. */
  caps: Map<DataTable, number>;
}

const SNAPSHOT_TABLES = DATA_TABLES.filter((table) => BACKUP_MODE[table] === 'snapshot');
const CAPPED_TABLES = DATA_TABLES.filter((table) => BACKUP_MODE[table] === 'capped');

/**
 * Takes the lock, and in the same transaction counts every table, reads the snapshot tables and
 * the schema version. From here until the lock is released no locked table changes.
 */
const takeLock = async (db: D1Database): Promise<Lock> => {
  const token = crypto.randomUUID();
  const results = await db.batch<Row>([
    db.prepare('DELETE FROM backup_lock WHERE expires_at <= unixepoch()'),
    pruneExpiredWindows(db),
    db.prepare('INSERT INTO backup_lock (token, expires_at) VALUES (?1, unixepoch() + ?2)').bind(token, LEASE_SECONDS),
    db.prepare(SCHEMA_VERSION_SQL),
    db.prepare(`SELECT ${DATA_TABLES.map((table) => `(SELECT count(*) FROM ${table}) AS ${table}`).join(', ')}`),
    db.prepare(`SELECT ${CAPPED_TABLES.map((table) => `coalesce((SELECT max(id) FROM ${table}), 0) AS ${table}`).join(', ') || '0 AS none'}`),
    ...SNAPSHOT_TABLES.map((table) => db.prepare(`SELECT * FROM ${table} ORDER BY rowid`)),
  ]);
  const [, , , version, counts, caps, ...snapshots] = results;
  const capRow = (caps?.results[0] ?? {}) as Record<string, number>;
  return {
    token,
    schemaVersion: Number(version?.results[0]?.version ?? 0),
    counts: counts?.results[0] as Record<DataTable, number>,
    snapshots: new Map(SNAPSHOT_TABLES.map((table, i) => [table, snapshots[i]?.results ?? []])),
    caps: new Map(CAPPED_TABLES.map((table) => [table, Number(capRow[table] ?? 0)])),
  };
};

const releaseLock = (db: D1Database, token: string) => db.prepare('DELETE FROM backup_lock WHERE token = ?1').bind(token).run();

/**
 * A locked table in pages by id (its rowid), each page read in one transaction with the lease's
 * renewal. A lease that already lapsed may have let writes in, so the backup stops there.
 */
async function* lockedPages(db: D1Database, token: string, table: DataTable, pageRows: number, cap = Number.MAX_SAFE_INTEGER) {
  const renew = db.prepare('UPDATE backup_lock SET expires_at = unixepoch() + ?2 WHERE token = ?1 AND expires_at > unixepoch()');
  const select = db.prepare(`SELECT * FROM ${table} WHERE id > ?1 AND id <= ?3 ORDER BY id LIMIT ?2`);
  let after: number = Number.MIN_SAFE_INTEGER;
  for (;;) {
    const [renewal, page] = await db.batch<Row>([renew.bind(token, LEASE_SECONDS), select.bind(after, pageRows, cap)]);
    if (!renewal?.meta.changes) throw new Error('The backup lost its lock on the database and was abandoned');
    const rows = page?.results ?? [];
    if (rows.length) yield rows;
    if (rows.length < pageRows) return;
    after = Number(rows[rows.length - 1]?.id);
  }
}

/**
 * Collects compressed output into parts of exactly `partBytes` and uploads each as soon as it is
 * full, so at most one part is held in memory.
 */
const partUploader = (upload: R2MultipartUpload, partBytes: number) => {
  const chunks: Uint8Array[] = [];
  const parts: R2UploadedPart[] = [];
  let buffered = 0;

  const take = (size: number) => {
    const part = new Uint8Array(size);
    for (let filled = 0; filled < size; ) {
      const head = chunks[0] as Uint8Array;
      const used = Math.min(head.byteLength, size - filled);
      part.set(head.subarray(0, used), filled);
      filled += used;
      if (used === head.byteLength) chunks.shift();
      else chunks[0] = head.subarray(used);
    }
    buffered -= size;
    return part;
  };
  const send = async (bytes: Uint8Array) => {
    parts.push(await upload.uploadPart(parts.length + 1, bytes));
  };

  return {
    add: async (chunk: Uint8Array) => {
      chunks.push(chunk);
      buffered += chunk.byteLength;
      while (buffered >= partBytes) await send(take(partBytes));
    },
    complete: async () => {
      if (buffered > 0 || parts.length === 0) await send(take(buffered));
      return upload.complete(parts);
    },
  };
};

/** Reads the gzip stream's output into the upload; on a failed part it cancels the stream. */
const uploadCompressed = async (compressed: ReadableStream<Uint8Array>, upload: R2MultipartUpload, partBytes: number) => {
  const parts = partUploader(upload, partBytes);
  const reader = compressed.getReader();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) await parts.add(next.value);
  } catch (error) {
    await reader.cancel(error).catch(() => undefined);
    throw error;
  }
  return parts.complete();
};

const lines = (table: DataTable, rows: Row[]) => {
  let text = '';
  for (const row of rows) text += `${JSON.stringify({ t: table, r: row })}\n`;
  return text;
};

/**
 * Writes every data table to R2 as one streamed backup file (format in backup-format.ts): pages
 * of rows become NDJSON lines, gzip-compressed and uploaded in parts as they fill. Writes to the
 * locked tables get 503 from the lock's triggers until the last page is read.
 */
export const writeBackup = async (
  db: D1Database,
  bucket: R2Bucket,
  { madeBy, audit = NO_ACTOR, pageRows = BACKUP_PAGE_ROWS, partBytes = BACKUP_PART_BYTES }: BackupOptions,
): Promise<BackupResult> => {
  const createdAt = new Date().toISOString();
  const key = backupKey(createdAt);
  const lock = await takeLock(db);
  let locked = true;
  const unlock = async () => {
    if (!locked) return;
    locked = false;
    await releaseLock(db, lock.token);
  };

  let upload: R2MultipartUpload | undefined;
  try {
    const total = DATA_TABLES.reduce((sum, table) => sum + lock.counts[table], 0);
    upload = await bucket.createMultipartUpload(key, {
      httpMetadata: { contentType: 'application/gzip' },
      customMetadata: { madeBy: makerTag(madeBy), rows: String(total) },
    });
    const gzip = new CompressionStream('gzip');
    const uploading = uploadCompressed(gzip.readable, upload, partBytes);
    const writer = gzip.writable.getWriter();
    const encoder = new TextEncoder();

    const produce = async () => {
      const header: BackupHeader = { format: BACKUP_FORMAT, createdAt, schemaVersion: lock.schemaVersion, tables: [...DATA_TABLES] };
      await writer.write(encoder.encode(`${JSON.stringify(header)}\n`));
      const manifest: Manifest = {};
      for (const table of DATA_TABLES) {
        const hash = workerdSha256();
        let rows = 0;
        const snapshot = lock.snapshots.get(table);
        const pages = snapshot ? [snapshot] : lockedPages(db, lock.token, table, pageRows, lock.caps.get(table));
        for await (const page of pages) {
          const bytes = encoder.encode(lines(table, page));
          await Promise.all([writer.write(bytes), hash.update(bytes)]);
          rows += page.length;
        }
        // The lock held, so every row counted when it was taken has been read, and no other.
        if (rows !== lock.counts[table]) throw new Error(`The backup read ${rows} rows of ${table} but counted ${lock.counts[table]}`);
        manifest[table] = { rows, sha256: await hash.hex() };
      }
      await unlock();
      await writer.write(encoder.encode(`${JSON.stringify({ manifest })}\n`));
      await writer.close();
      return manifest;
    };

    const [manifest, object] = await Promise.all([
      produce().catch(async (error: unknown) => {
        await writer.abort(error).catch(() => undefined);
        throw error;
      }),
      uploading,
    ]);
    await recordBackup(db, bucket, audit, key);
    return { key, createdAt, bytes: object.size, rows: Object.fromEntries(DATA_TABLES.map((table) => [table, manifest[table]?.rows ?? 0])) };
  } catch (error) {
    await upload?.abort().catch(() => undefined);
    throw error;
  } finally {
    await unlock();
  }
};

/**
 * The backup's audit entry, written once the file is complete and the lock released. R2 and D1
 * share no transaction, so a file whose entry cannot be written is removed again: no backup exists
 * without its entry.
 */
const recordBackup = async (db: D1Database, bucket: R2Bucket, audit: AuditContext, key: string) => {
  try {
    await auditEvent(db, audit, { action: 'backup', entity: 'backup', entityId: null, changes: { key: [null, key] } }).run();
  } catch (error) {
    await bucket.delete(key);
    throw error;
  }
};
