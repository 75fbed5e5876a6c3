import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Log, LogLevel, Miniflare } from 'miniflare';
import { unstable_getMiniflareWorkerOptions } from 'wrangler';
import { withEnvironment } from './env-overrides';
import { printRuntimeOutput } from './runtime-output';

/** The config `vite build` writes next to the built Worker. */
export const BUILT_CONFIG = 'dist/staff_app/wrangler.json';
const BUILT_DIR = 'dist/staff_app';
const BUILT_WORKER = `${BUILT_DIR}/index.js`;

/**
 * The built Worker's modules: its entry and the chunks it imports on demand (the MIME parser). Named
 * here as `wrangler deploy` finds them by the config's rules; Miniflare's own discovery stops at
 * an `import()` it cannot read ahead.
 */
const builtModules = () => {
  const chunks = path.join(BUILT_DIR, 'assets');
  const extra = existsSync(chunks) ? readdirSync(chunks).filter((name) => name.endsWith('.js')) : [];
  return [BUILT_WORKER, ...extra.map((name) => path.join(chunks, name))].map((file) => ({ type: 'ESModule' as const, path: file }));
};

export interface ServeOptions {
  port: number;
  stateDir: string;
  upstream?: string;
  quiet?: boolean;
  /** false: API only, with no asset router in front, for figures that never ask for a page. */
  pages?: boolean;
  /** Lets `GET /cdn-cgi/handler/scheduled` run the Cron Trigger's handler, for the backup figures. */
  triggerHandlers?: boolean;
  /** Opens the inspector on this port, for figures read from inside the Worker's isolate. */
  inspectorPort?: number;
  /**
   * true only behind edge-front.ts, which sets CF-Connecting-IP as Cloudflare's edge does.
   * Miniflare alone keeps a CF-Connecting-IP the client sends, so there it is no address.
   */
  trustConnectingIp?: boolean;
}

/**
 * Serves the built Worker and bundle (dist/) in workerd through Miniflare, on 127.0.0.1, with the
 * bindings, assets and `.dev.vars` wrangler reads from the built config. Not `wrangler dev`: its
 * live-reload proxy sits in front of every request, adds about 15 ms to each, and now and then
 * left a page's script requests unanswered for 30 s.
 */
export const serveBuilt = async ({ port, stateDir, upstream, quiet, pages = true, triggerHandlers = false, inspectorPort, trustConnectingIp = false }: ServeOptions) => {
  const { workerOptions } = unstable_getMiniflareWorkerOptions(BUILT_CONFIG);
  const mf = new Miniflare({
    ...workerOptions,
    ...(pages ? {} : { assets: undefined, serviceBindings: { ASSETS: () => new Response('Not Found', { status: 404 }) } }),
    modules: builtModules(),
    modulesRoot: BUILT_DIR,
    bindings: { ...withEnvironment(workerOptions.bindings ?? {}), TRUST_CF_CONNECTING_IP: String(trustConnectingIp), ...(upstream ? { UPSTREAM_API_URL: upstream } : {}) },
    host: '127.0.0.1',
    port,
    // The same folders `wrangler d1 migrations apply --persist-to <stateDir>` writes to.
    d1Persist: `${stateDir}/v3/d1`,
    r2Persist: `${stateDir}/v3/r2`,
    // Placeholder request.cf values instead of fetching them from Cloudflare at start.
    cf: false,
    log: new Log(quiet ? LogLevel.WARN : LogLevel.INFO),
    // Quiet runs (bench, load) still write the request log, as production does, but nobody reads it.
    // Otherwise workerd's output is shown without the traces of clients that went away mid-response.
    handleRuntimeStdio: quiet ? (stdout: Readable, stderr: Readable) => (stdout.resume(), stderr.pipe(process.stderr)) : printRuntimeOutput,
    // The Worker writes its own line per API request (src/worker/request-log.ts) without the
    // address's ids and query values, which Miniflare's request log would print.
    logRequests: false,
    unsafeTriggerHandlers: triggerHandlers,
    inspectorPort,
  });
  await mf.ready;
  return mf;
};

/** Resolves once `url` answers, or rejects after `timeoutMs`. */
export const waitUntilUp = async (url: string, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
};
