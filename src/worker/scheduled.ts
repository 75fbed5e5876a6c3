import type { Env } from './env';
import { backupOnSchedule, DAILY_BACKUP_CRON } from './provider';

/**
 * The Cron Triggers back up the embedded provider's database. With an upstream API the data is
 * not in this D1 database, so there is nothing to back up; the daily run says so in the log.
 */
export const scheduled: ExportedHandlerScheduledHandler<Env> = async (controller, env) => {
  if (env.UPSTREAM_API_URL?.trim()) {
    if (controller.cron === DAILY_BACKUP_CRON) console.warn('scheduled backup skipped: UPSTREAM_API_URL is set, so the data is not in this D1 database');
    return;
  }
  await backupOnSchedule(controller.cron, env);
};
