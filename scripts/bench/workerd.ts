import { readFileSync } from 'node:fs';
import { Miniflare } from 'miniflare';

/**
 * The built Worker in workerd through Miniflare, without `wrangler dev`'s live-reload proxy and
 * request logging, which add about 15 ms a request locally and would hide what the app costs.
 * API only: the bench's HTTP figures never ask for a page.
 */
/** The built Worker's wrangler config (compatibility date and vars). */
export const builtConfig = () =>
  JSON.parse(readFileSync('dist/staff_app/wrangler.json', 'utf8')) as { compatibility_date: string; vars: Record<string, string> };

export const startWorkerd = async ({ port, stateDir, upstream = '' }: { port: number; stateDir: string; upstream?: string }) => {
  const config = builtConfig();
  const secret = /JWT_SECRET="?([^"\n]+)"?/.exec(readFileSync('.dev.vars', 'utf8'))?.[1] ?? 'bench-secret';
  const mf = new Miniflare({
    modules: true,
    scriptPath: 'dist/staff_app/index.js',
    compatibilityDate: config.compatibility_date,
    host: '127.0.0.1',
    port,
    bindings: { ...config.vars, UPSTREAM_API_URL: upstream, JWT_SECRET: secret },
    d1Databases: { DB: '00000000-0000-0000-0000-000000000000' },
    r2Buckets: ['BACKUPS'],
    serviceBindings: { ASSETS: () => new Response('Not Found', { status: 404 }) },
    d1Persist: `${stateDir}/v3/d1`,
    r2Persist: `${stateDir}/v3/r2`,
    // Miniflare otherwise reports every request to Node over its loopback connection.
    logRequests: false,
  });
  await mf.ready;
  return mf;
};
