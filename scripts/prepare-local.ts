import { pathToFileURL } from 'node:url';
import { ensureDevVars } from './dev-vars';
import { localStateDir, withLocalEnv } from './local-env';
import { summariseMigrations } from './migration-summary';
import { bin, runCaptured } from './run';
import { seed } from './seed';

/** Everything a local run needs before serving: a secret, the schema, and the demo data. */
export const prepareLocal = async () => {
  if (ensureDevVars()) console.log('Wrote a new random JWT_SECRET to .dev.vars.');
  console.log(summariseMigrations(await runCaptured(bin('wrangler'), ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', localStateDir()])));
  if (await withLocalEnv(seed)) console.log('Seeded the demo admin and the demo data.');
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await prepareLocal();
