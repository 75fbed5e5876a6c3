import type { Context } from 'hono';
import { version } from '../../package.json';
import { API_VERSION } from '../shared/constants';
import type { Env } from './env';

/** How long a dependency may take before the app counts as unhealthy (docs/operations.md#health). */
export const HEALTH_CHECK_TIMEOUT_MS = 2_000;

interface Check {
  ok: boolean;
  ms: number;
}

const timed = async (probe: (signal: AbortSignal) => Promise<unknown>): Promise<Check> => {
  const started = performance.now();
  const signal = AbortSignal.timeout(HEALTH_CHECK_TIMEOUT_MS);
  const aborted = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
  try {
    await Promise.race([probe(signal), aborted]);
    return { ok: true, ms: Math.round(performance.now() - started) };
  } catch {
    // The reason may name a host or carry a stack; the answer says only that the check failed.
    return { ok: false, ms: Math.round(performance.now() - started) };
  }
};

// Any HTTP answer, even a 401 or 404, shows the upstream is up; only silence or a refused
// connection counts against it.
const upstreamAnswers = (base: string) => (signal: AbortSignal) =>
  fetch(`${base}/${API_VERSION}/`, { method: 'GET', signal, redirect: 'manual' }).then((res) => res.body?.cancel());

const databaseAnswers = (db: D1Database) => () => db.prepare('SELECT 1').first();

/** `GET /healthz`: answered by the Worker itself, without auth, for load balancers and ops. */
export const health = async (c: Context<{ Bindings: Env }>) => {
  const upstream = c.env.UPSTREAM_API_URL?.trim().replace(/\/+$/, '');
  const checks = upstream
    ? { upstream: await timed(upstreamAnswers(upstream)) }
    : { db: await timed(databaseAnswers(c.env.DB)) };
  const ok = Object.values(checks).every((check) => check.ok);
  return c.json(
    { status: ok ? 'ok' : 'unavailable', version, api: upstream ? 'upstream' : 'embedded', checks },
    ok ? 200 : 503,
    { 'cache-control': 'no-store' },
  );
};
