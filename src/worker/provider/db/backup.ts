import type { BackupListItem, BackupResult } from '../../../shared/types';
import { auditEvent, type AuditContext } from './audit';
import { DATA_TABLES, type DataTable } from './tables';

export const BACKUP_PREFIX = 'backups/';
export const BACKUP_FORMAT_VERSION = 1;

export interface BackupDocument {
  version: number;
  createdAt: string;
  tables: Record<DataTable, Record<string, unknown>[]>;
}

/** `2026-11-22T06-30-00.123Z`: the UTC time, with the colons some file systems refuse replaced. */
const backupKey = (createdAt: string) => `${BACKUP_PREFIX}${createdAt.replace(/:/g, '-')}.json`;

/** Reads every table in one batch, which D1 runs as one transaction: a consistent snapshot. */
export const snapshot = async (db: D1Database): Promise<BackupDocument> => {
  const results = await db.batch(DATA_TABLES.map((table) => db.prepare(`SELECT * FROM ${table} ORDER BY rowid`)));
  const tables = Object.fromEntries(
    DATA_TABLES.map((table, i) => [table, (results[i]?.results ?? []) as Record<string, unknown>[]]),
  ) as BackupDocument['tables'];
  return { version: BACKUP_FORMAT_VERSION, createdAt: new Date().toISOString(), tables };
};

/**
 * Writes the snapshot to R2 and records it in the audit log. R2 and D1 share no transaction, so
 * the file goes first and is removed again when its entry cannot be written: no backup exists
 * without its entry.
 */
export const writeBackup = async (db: D1Database, bucket: R2Bucket, audit: AuditContext): Promise<BackupResult> => {
  const document = await snapshot(db);
  const body = new TextEncoder().encode(JSON.stringify(document));
  const key = backupKey(document.createdAt);
  await bucket.put(key, body, { httpMetadata: { contentType: 'application/json' } });
  try {
    await auditEvent(db, audit, { action: 'backup', entity: 'backup', entityId: null, changes: { key: [null, key] } }).run();
  } catch (error) {
    await bucket.delete(key);
    throw error;
  }
  const rows = Object.fromEntries(DATA_TABLES.map((table) => [table, document.tables[table].length]));
  return { key, createdAt: document.createdAt, bytes: body.byteLength, rows };
};

export const listBackups = async (bucket: R2Bucket): Promise<BackupListItem[]> => {
  const items: BackupListItem[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix: BACKUP_PREFIX, cursor });
    for (const object of page.objects) {
      items.push({
        key: object.key,
        createdAt: object.uploaded.toISOString(),
        bytes: object.size,
      });
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return items.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
};
