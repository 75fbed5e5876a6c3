import { storedBackups } from './list';

export interface RetentionPolicy {
  keepDaily: number;
  keepMonthly: number;
}

export const DEFAULT_RETENTION: RetentionPolicy = { keepDaily: 14, keepMonthly: 12 };

const count = (value: unknown, fallback: number) => {
  const text = String(value ?? '').trim();
  return /^\d{1,4}$/.test(text) ? Number(text) : fallback;
};

/** BACKUP_KEEP_DAILY and BACKUP_KEEP_MONTHLY; a missing or malformed value keeps the default. */
export const retentionPolicy = (vars: { BACKUP_KEEP_DAILY?: unknown; BACKUP_KEEP_MONTHLY?: unknown }): RetentionPolicy => ({
  keepDaily: count(vars.BACKUP_KEEP_DAILY, DEFAULT_RETENTION.keepDaily),
  keepMonthly: count(vars.BACKUP_KEEP_MONTHLY, DEFAULT_RETENTION.keepMonthly),
});

/**
 * The keys retention keeps out of `backups` (newest first): the newest backup of each of the
 * newest `keepDaily` UTC days that have one, and the first backup of each of the newest
 * `keepMonthly` UTC months that have one. Counting days and months that have a backup, rather
 * than calendar days back from today, means a schedule that stopped for a while still leaves the
 * last good backups in place.
 */
export const keysToKeep = (backups: { key: string; createdAt: string }[], { keepDaily, keepMonthly }: RetentionPolicy) => {
  const newestOfDay = new Map<string, string>();
  const firstOfMonth = new Map<string, string>();
  for (const { key, createdAt } of backups) {
    const day = createdAt.slice(0, 10);
    if (!newestOfDay.has(day) && newestOfDay.size < keepDaily) newestOfDay.set(day, key);
    const month = createdAt.slice(0, 7);
    if (firstOfMonth.has(month) || firstOfMonth.size < keepMonthly) firstOfMonth.set(month, key);
  }
  return new Set([...newestOfDay.values(), ...firstOfMonth.values()]);
};

/** R2 deletes at most 1,000 keys per call. */
const DELETE_BATCH = 1000;

/**
 * Applies retention after the backup `newKey` was written, which it always keeps; returns the
 * deleted keys. Only ever called once a new backup has succeeded, so a failing schedule never
 * thins out the backups that are left.
 */
export const pruneBackups = async (bucket: R2Bucket, policy: RetentionPolicy, newKey: string) => {
  const backups = await storedBackups(bucket);
  const keep = keysToKeep(backups, policy);
  keep.add(newKey);
  const doomed = backups.map(({ key }) => key).filter((key) => !keep.has(key));
  for (let i = 0; i < doomed.length; i += DELETE_BATCH) await bucket.delete(doomed.slice(i, i + DELETE_BATCH));
  return doomed;
};
