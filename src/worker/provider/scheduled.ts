import { STEP_BUDGET, abandonStuckRuns, startBackup, stepBackup, type StepOutcome } from './db/backup/write';
import { pruneBackups, retentionPolicy } from './db/backup/retention';
import { BackupRunning } from './db/backup/capacity';
import { nextRunToContinue } from './db/backup/run';
import { backupSettings } from './db/backup/vars';
import type { ProviderBindings } from './env';
import { sendSlaAlerts } from './db/sla/alerts';
import { teamHub } from './live/team-hub';

/** The daily backup's Cron Trigger in wrangler.toml; the other trigger carries backups on. */
export const DAILY_BACKUP_CRON = '0 3 * * *';

type BackupBindings = Pick<ProviderBindings, 'DB' | 'BACKUPS' | 'BACKUP_KEEP_DAILY' | 'BACKUP_KEEP_MONTHLY' | 'BACKUP_PAGE_ROWS' | 'D1_MAX_BYTES'>;

/** Retention runs after a scheduled backup is complete, and never before. */
const finish = async (env: BackupBindings, outcome: StepOutcome | null) => {
  if (!outcome?.done) return { backup: null, deleted: [] as string[] };
  const deleted = outcome.madeBy.type === 'schedule' ? await pruneBackups(env.BACKUPS, retentionPolicy(env), outcome.backup.key) : [];
  return { backup: outcome.backup, deleted };
};

/**
 * The daily backup of the embedded provider's database: starts it and takes its first step. A
 * database too large for one invocation's budget is carried on by the minute trigger, one step
 * per invocation (docs/decisions.md#the-backup-in-steps). A failed step throws, which marks the
 * run failed in the Workers dashboard, and deletes nothing; so does a database too full for the
 * backup's copies. While a backup made by hand is still running, that one stands for the day's.
 */
export const runScheduledBackup = async (env: BackupBindings) => {
  let started;
  try {
    started = await startBackup(env.DB, env.BACKUPS, { madeBy: { type: 'schedule' }, ...backupSettings(env) });
  } catch (error) {
    if (!(error instanceof BackupRunning)) throw error;
    console.warn(`scheduled backup skipped: ${error.message}`);
    return { runId: null, backup: null, deleted: [] as string[] };
  }
  const { runId, queries } = started;
  return { runId, ...(await finish(env, await stepBackup(env.DB, env.BACKUPS, runId, STEP_BUDGET, queries))) };
};

/**
 * One step of the oldest unfinished backup that no invocation is working on, if there is one,
 * after giving up any whose steps keep dying.
 */
export const continueBackup = async (env: BackupBindings) => {
  await abandonStuckRuns(env.DB, env.BACKUPS);
  const runId = await nextRunToContinue(env.DB);
  if (!runId) return null;
  return { runId, ...(await finish(env, await stepBackup(env.DB, env.BACKUPS, runId))) };
};

/** What a Cron Trigger does here: the daily backup, or the next step of one under way. */
export const backupOnSchedule = (cron: string, env: BackupBindings) => (cron === DAILY_BACKUP_CRON ? runScheduledBackup(env) : continueBackup(env));

/**
 * The minute trigger's other work: service-level warnings, passed to the live channel once
 * committed (docs/architecture.md#service-levels).
 */
export const slaAlertsOnSchedule = async (env: Pick<ProviderBindings, 'DB' | 'LIVE'>, now = new Date()) => {
  const notifications = await sendSlaAlerts(env.DB, now);
  if (notifications.length) await teamHub(env).publish({ changes: [], notifications, sessionsOf: [] });
  return notifications;
};
