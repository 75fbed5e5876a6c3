import { BACKUP_FORMAT_VERSION, type BackupDocument } from './backup';
import { insertRows } from './bulk';
import { DATA_TABLES } from './tables';

export class RestoreError extends Error {}

/** Checks a parsed backup file before anything is written. */
export const asBackup = (value: unknown): BackupDocument => {
  const doc = value as Partial<BackupDocument> | null;
  if (!doc || typeof doc !== 'object' || doc.version !== BACKUP_FORMAT_VERSION || typeof doc.tables !== 'object' || doc.tables === null) {
    throw new RestoreError(`not a version ${BACKUP_FORMAT_VERSION} backup`);
  }
  // Backups made before the audit log existed restore with an empty one.
  doc.tables.audit_log ??= [];
  for (const table of DATA_TABLES) {
    if (!Array.isArray(doc.tables[table])) throw new RestoreError(`the backup has no rows array for ${table}`);
  }
  return doc as BackupDocument;
};

/**
 * Restores a backup into a migrated database that holds no data rows, table by table, parents
 * first, with the original ids, so every row comes back exactly as it was.
 */
export const restoreBackup = async (db: D1Database, backup: BackupDocument) => {
  const counts = await db.batch<{ n: number }>(DATA_TABLES.map((table) => db.prepare(`SELECT count(*) AS n FROM ${table}`)));
  const occupied = DATA_TABLES.filter((_, i) => (counts[i]?.results[0]?.n ?? 0) > 0);
  if (occupied.length) throw new RestoreError(`the target database is not empty (${occupied.join(', ')})`);

  const restored: Record<string, number> = {};
  for (const table of DATA_TABLES) {
    const rows = backup.tables[table];
    const columns = rows.length ? Object.keys(rows[0] as object) : [];
    await insertRows(db, table, columns, rows.map((row) => columns.map((column) => row[column])));
    restored[table] = rows.length;
  }
  return restored;
};
