import { localStateDir } from './local-env';
import { prepareLocal } from './prepare-local';
import { bin, run } from './run';
import { serveBehindEdge } from './edge-front';
import { waitUntilUp } from './serve';
import { DEMO_BILLING_EMAILS, DEMO_STAFF_EMAIL, DEMO_USER_PASSWORD } from './demo-data';
import { DEMO_ADMIN_EMAIL, demoAdminPassword } from './seed';

// `npm start`: build, migrate, seed, then serve the built Worker and bundle in workerd.
process.env.WRANGLER_SEND_METRICS ??= 'false';
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= 'false';

const port = Number(process.env.PORT || 8787);
const upstream = process.env.UPSTREAM_API_URL?.trim() ?? '';
const url = `http://localhost:${port}`;

await prepareLocal();
await run(bin('vite'), ['build', '--logLevel', 'warn']);

// Behind a front that sets CF-Connecting-IP as Cloudflare's edge does: the sign-in limiter counts per address.
const server = await serveBehindEdge({ port, stateDir: localStateDir(), upstream });
const stop = async () => {
  await server.dispose();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

try {
  await waitUntilUp(`${url}/login/`);
  console.log(`
  Staff app is running at ${url}/
  API: ${upstream ? `passthrough to ${upstream}/v1` : 'embedded provider (local D1 + R2)'}
  Sign in as ${DEMO_ADMIN_EMAIL} with password ${process.env.SEED_ADMIN_PASSWORD ? '$SEED_ADMIN_PASSWORD' : demoAdminPassword()} (admin)
          or ${DEMO_BILLING_EMAILS[0]} with password ${DEMO_USER_PASSWORD} (billing)
          or ${DEMO_STAFF_EMAIL} with password ${DEMO_USER_PASSWORD} (staff)
  Stop with Ctrl+C.
`);
} catch (error) {
  console.error((error as Error).message);
  await server.dispose();
  process.exit(1);
}
