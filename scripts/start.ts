import { spawn } from 'node:child_process';
import { localStateDir } from './local-env';
import { prepareLocal } from './prepare-local';
import { bin, run } from './run';
import { DEMO_ADMIN_EMAIL, demoAdminPassword } from './seed';

// `npm start`: build, migrate, seed, then serve the built Worker and bundle in workerd.
process.env.WRANGLER_SEND_METRICS ??= 'false';
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= 'false';

const port = Number(process.env.PORT || 8787);
const upstream = process.env.UPSTREAM_API_URL?.trim() ?? '';
const url = `http://localhost:${port}`;

await prepareLocal();
await run(bin('vite'), ['build', '--logLevel', 'warn']);

const args = ['dev', '-c', 'dist/staff_app/wrangler.json', '--port', String(port), '--ip', '127.0.0.1'];
args.push('--persist-to', localStateDir(), '--show-interactive-dev-session=false');
if (upstream) args.push('--var', `UPSTREAM_API_URL:${upstream}`);

// Same process group as this script: Ctrl+C, or a test killing the group, stops workerd too.
const server = spawn(bin('wrangler'), args, { stdio: ['ignore', 'inherit', 'inherit'] });
const stop = () => server.kill('SIGTERM');
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
server.on('exit', (code) => process.exit(code ?? 0));

const waitUntilUp = async () => {
  for (let attempt = 0; attempt < 120; attempt++) {
    try {
      if ((await fetch(`${url}/login/`)).ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
};

if (await waitUntilUp()) {
  console.log(`
  Staff app is running at ${url}/
  API: ${upstream ? `passthrough to ${upstream}/v1` : 'embedded provider (local D1 + R2)'}
  Sign in as ${DEMO_ADMIN_EMAIL} with password ${process.env.SEED_ADMIN_PASSWORD ? '$SEED_ADMIN_PASSWORD' : demoAdminPassword()}
  Stop with Ctrl+C.
`);
} else {
  console.error(`The server did not answer at ${url} within 30 seconds.`);
  stop();
  process.exit(1);
}
