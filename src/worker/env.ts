/** Bindings and variables of the Worker, as wrangler.toml and `.dev.vars` declare them. */
export interface Env {
  ASSETS: Fetcher;
  DB: D1Database;
  BACKUPS: R2Bucket;
  APP_AUDIENCE: string;
  UPSTREAM_API_URL: string;
  JWT_SECRET: string;
  /** Retention of the scheduled backups (DESIGN.md §8): whole numbers as text. */
  BACKUP_KEEP_DAILY: string;
  BACKUP_KEEP_MONTHLY: string;
}
