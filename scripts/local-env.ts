import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getPlatformProxy, unstable_readConfig } from 'wrangler';
import type { Env } from '../src/worker/env';

/** Where local D1 and R2 live; tests point it at a throwaway folder so they never touch demo data. */
export const localStateDir = () => process.env.LOCAL_STATE_DIR || '.wrangler/state';

/** The bindings scripts work with: the database and the two buckets, never the live channel. */
export type LocalEnv = Pick<Env, 'DB' | 'BACKUPS' | 'FILES'>;

// The parts of wrangler.toml's entries that name local storage (wrangler's config types reach here untyped).
interface D1Entry {
  binding: string;
  database_name?: string;
  database_id?: string;
  preview_database_id?: string;
}
interface R2Entry {
  binding: string;
  bucket_name?: string;
  preview_bucket_name?: string;
}

/**
 * A Wrangler config with wrangler.toml's D1 and R2 bindings alone, written to a throwaway folder.
 * The full config also binds the live channel's Durable Object, a class of the app's own Worker:
 * the proxy runs no Worker of ours, so wrangler warned that the binding would not work locally and
 * workerd that no such class was exported, on every `npm start`, though the app's live channel
 * works. The same ids keep the proxy on the same local files as the app.
 */
export const storageOnlyConfig = () => {
  const config = unstable_readConfig({ config: 'wrangler.toml' });
  const databases: D1Entry[] = config.d1_databases;
  const buckets: R2Entry[] = config.r2_buckets;
  const folder = mkdtempSync(path.join(tmpdir(), 'staff-app-local-env-'));
  const file = path.join(folder, 'wrangler.json');
  writeFileSync(
    file,
    JSON.stringify({
      name: config.name,
      compatibility_date: config.compatibility_date,
      d1_databases: databases.map(({ binding, database_name, database_id, preview_database_id }) => ({ binding, database_name, database_id, preview_database_id })),
      r2_buckets: buckets.map(({ binding, bucket_name, preview_bucket_name }) => ({ binding, bucket_name, preview_bucket_name })),
    }),
  );
  return { file, dispose: () => rmSync(folder, { recursive: true, force: true }) };
};

/**
 * Runs `work` against the local D1 and R2 that `npm start` serves, so scripts use the provider's
 * own helpers instead of hand-written SQL.
 */
export const withLocalEnv = async <T>(work: (env: LocalEnv) => Promise<T>): Promise<T> => {
  const config = storageOnlyConfig();
  try {
    // wrangler's CLI adds the v3 folder itself; the proxy takes the full path. No .dev.vars: scripts need no secret.
    const proxy = await getPlatformProxy<LocalEnv>({ configPath: config.file, envFiles: [], persist: { path: path.resolve(localStateDir(), 'v3') } });
    try {
      return await work(proxy.env);
    } finally {
      await proxy.dispose();
    }
  } finally {
    config.dispose();
  }
};
