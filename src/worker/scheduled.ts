import type { Env } from './env';
import { backupOnSchedule, DAILY_BACKUP_CRON, mailOnSchedule, slaAlertsOnSchedule } from './provider';

/**
 * The Cron Triggers back up the embedded provider's database, and every minute send the
 * service-level warnings that are due, then the mail that is due (the warnings' own among it).
 * With an upstream API the data is not in this D1 database, so there is nothing to do; the daily
 * run says so in the log.
 */
export const scheduled: ExportedHandlerScheduledHandler<Env> = async (controller, env) => {
  if (env.UPSTREAM_API_URL?.trim()) {
    if (controller.cron === DAILY_BACKUP_CRON) console.warn('scheduled backup skipped: UPSTREAM_API_URL is set, so the data is not in this D1 database');
    return;
  }
  // Each job runs whatever the other does; a failure of either still fails the run.
  const minute = () => slaAlertsOnSchedule(env).finally(() => mailOnSchedule(env));
  const jobs = [backupOnSchedule(controller.cron, env), ...(controller.cron === DAILY_BACKUP_CRON ? [] : [minute()])];
  const failed = (await Promise.allSettled(jobs)).find((job) => job.status === 'rejected');
  if (failed) throw failed.reason;
};
