import { spawn, type ChildProcess } from 'node:child_process';
import { bin } from './run';

export interface ServeOptions {
  port: number;
  stateDir: string;
  upstream?: string;
  quiet?: boolean;
}

/** Serves the built Worker and bundle (dist/) in workerd through wrangler, on 127.0.0.1. */
export const serveBuilt = ({ port, stateDir, upstream, quiet }: ServeOptions): ChildProcess => {
  const args = ['dev', '-c', 'dist/staff_app/wrangler.json', '--port', String(port), '--ip', '127.0.0.1'];
  args.push('--persist-to', stateDir, '--show-interactive-dev-session=false');
  if (upstream) args.push('--var', `UPSTREAM_API_URL:${upstream}`);
  if (quiet) args.push('--log-level', 'error');
  return spawn(bin('wrangler'), args, {
    stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'inherit'],
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' },
  });
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
