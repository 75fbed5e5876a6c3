import type { BackupList, BackupMadeBy } from '../../../../shared/types';
import { databaseSize } from './capacity';
import { BACKUP_PREFIX, createdAtOfKey, parseMakerTag, type BackupMaker } from './format';
import { progressOf, runningRun } from './run';
import { fullName } from '../sql';

export interface StoredBackup {
  key: string;
  createdAt: string;
  bytes: number;
  rows: number | null;
  maker: BackupMaker | null;
}

const rowCountOf = (value: string | undefined) => (value && /^\d{1,15}$/.test(value) ? Number(value) : null);

/** Every backup in the bucket, newest first, its time read from its key. */
export const storedBackups = async (bucket: R2Bucket): Promise<StoredBackup[]> => {
  const backups: StoredBackup[] = [];
  let cursor: string | undefined;
  do {
    // `include` is honoured at this compatibility date; the oldest workers-types leave it out.
    const page = await bucket.list({ prefix: BACKUP_PREFIX, cursor, include: ['customMetadata'] } as R2ListOptions);
    for (const object of page.objects) {
      const createdAt = createdAtOfKey(object.key);
      if (!createdAt) continue;
      const metadata = object.customMetadata ?? {};
      backups.push({ key: object.key, createdAt, bytes: object.size, rows: rowCountOf(metadata.rows), maker: parseMakerTag(metadata.madeBy) });
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return backups.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
};

const userNames = async (db: D1Database, ids: number[]) => {
  if (!ids.length) return new Map<number, string>();
  const { results } = await db
    .prepare(`SELECT id, ${fullName()} AS name FROM users WHERE id IN (SELECT value FROM json_each(?1))`)
    .bind(JSON.stringify(ids))
    .all<{ id: number; name: string }>();
  return new Map(results.map(({ id, name }) => [id, name]));
};

/**
 * GET settings/backups: the backups newest first, each with the name of the person who made it;
 * the one under way and how far it has got; and the database's size against `limitBytes`.
 */
export const listBackups = async (db: D1Database, bucket: R2Bucket, limitBytes: number): Promise<BackupList> => {
  const [backups, { run, sizeBytes }] = await Promise.all([storedBackups(bucket), runningRun(db)]);
  const names = await userNames(db, [...new Set(backups.flatMap(({ maker }) => (maker?.type === 'user' ? [maker.id] : [])))]);
  const madeBy = (maker: BackupMaker | null): BackupMadeBy | null =>
    maker?.type === 'user' ? { type: 'user', id: maker.id, name: names.get(maker.id) ?? `User ${maker.id}` } : maker;
  return {
    items: backups.map(({ key, createdAt, bytes, rows, maker }) => ({ key, createdAt, bytes, rows, madeBy: madeBy(maker) })),
    lastScheduledAt: backups.find(({ maker }) => maker?.type === 'schedule')?.createdAt ?? null,
    running: run ? { runId: run.id, key: run.key, startedAt: run.startedAt, ...progressOf(run.state) } : null,
    database: databaseSize(sizeBytes, limitBytes),
  };
};
