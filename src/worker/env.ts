/** Bindings and variables of the Worker, as wrangler.toml and `.dev.vars` declare them. */
export interface Env {
  ASSETS: Fetcher;
  DB: D1Database;
  BACKUPS: R2Bucket;
  APP_AUDIENCE: string;
  UPSTREAM_API_URL: string;
  JWT_SECRET: string;
}
