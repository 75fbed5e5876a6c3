/**
 * The Worker's variables with the process environment's values in place of theirs: under
 * `npm start` a variable set in the environment wins over `.dev.vars` and wrangler.toml's
 * `[vars]`, so `ACCESS_TEAM_DOMAIN=… ACCESS_AUD=… npm start` runs the app behind a test's own
 * Access settings (docs/operations.md#cloudflare-access). Only names the Worker already declares
 * are taken, so the rest of the environment (PATH, HOME, …) never reaches it; bindings that are
 * not text (databases, buckets) are left alone.
 */
export const withEnvironment = <T extends Record<string, unknown>>(bindings: T, environment: NodeJS.ProcessEnv = process.env): T =>
  Object.fromEntries(
    Object.entries(bindings).map(([name, value]) => {
      const set = environment[name];
      return [name, typeof value === 'string' && set !== undefined ? set : value];
    }),
  ) as T;
