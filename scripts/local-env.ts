import { getPlatformProxy } from 'wrangler';
import type { Env } from '../src/worker/env';

/** Where local D1 and R2 live; tests point it at a throwaway folder so they never touch demo data. */
export const localStateDir = () => process.env.LOCAL_STATE_DIR || '.wrangler/state';

/**
 * Runs `work` against the local D1 and R2 that `npm start` serves, so scripts use the provider's
 * own helpers instead of hand-written SQL.
 */
export const withLocalEnv = async <T>(work: (env: Env) => Promise<T>): Promise<T> => {
  // wrangler's CLI adds the v3 folder itself; the proxy takes the full path.
  const proxy = await getPlatformProxy<Env>({ configPath: 'wrangler.toml', persist: { path: `${localStateDir()}/v3` } });
  try {
    return await work(proxy.env);
  } finally {
    await proxy.dispose();
  }
};
