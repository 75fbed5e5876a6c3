import type { Env } from './env';
import { writeBackup } from './provider/db/backup';
import { pruneBackups, retentionPolicy } from './provider/db/backup-retention';

/**
 * The daily backup of the embedded provider's database (the Cron Trigger in wrangler.toml),
 * then retention. A failed backup throws, which marks the run failed in the Workers dashboard,
 * and deletes nothing.
 */
export const runScheduledBackup = async (env: Env) => {
  if (env.UPSTREAM_API_URL?.trim()) {
    console.warn('scheduled backup skipped: UPSTREAM_API_URL is set, so the data is not in this D1 database');
    return null;
  }
  const backup = await writeBackup(env.DB, env.BACKUPS, { madeBy: { type: 'schedule' } });
  const deleted = await pruneBackups(env.BACKUPS, retentionPolicy(env), backup.key);
  return { backup, deleted };
};

export const scheduled: ExportedHandlerScheduledHandler<Env> = async (_controller, env) => {
  await runScheduledBackup(env);
};
