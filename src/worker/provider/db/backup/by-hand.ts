import type { BackupResult } from '../../../../shared/types';
import { abandonStuckRuns, startBackup, stepBackup, type BackupOptions } from './write';

/**
 * How long the Backup Database button's request may read, from the start of the backup: its
 * answer must come well inside the 10 s the Worker's passthrough waits (docs/api.md), after the
 * copying transaction, the page under way when this runs out, and the save.
 */
export const REQUEST_STEP_MS = 5_000;
/** The same query budget as a scheduled step: far under D1's 1,000 per invocation. */
export const REQUEST_STEP_QUERIES = 200;

export type ManualBackup = { done: true; backup: BackupResult } | { done: false; runId: string };

/**
 * The Backup Database button: starts the same backup the schedule makes and takes its first
 * step in this request. A small database is done in that step; a larger one is carried on by the
 * every-minute trigger (src/worker/provider/scheduled.ts), as the daily backup is.
 */
export const backupByHand = async (db: D1Database, bucket: R2Bucket, options: BackupOptions): Promise<ManualBackup> => {
  const began = Date.now();
  // A run whose steps keep dying would otherwise hold off every new one until the next minute's trigger.
  await abandonStuckRuns(db, bucket);
  const { runId, queries } = await startBackup(db, bucket, options);
  const outcome = await stepBackup(db, bucket, runId, { queries: REQUEST_STEP_QUERIES, ms: Math.max(0, REQUEST_STEP_MS - (Date.now() - began)) }, queries + 1);
  // Null: the minute's trigger took the run up between its start and this step.
  return outcome?.done ? { done: true, backup: outcome.backup } : { done: false, runId };
};
