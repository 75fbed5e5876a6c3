import { pathToFileURL } from 'node:url';
import { hashPassword } from '../src/worker/provider/auth/password';
import { NO_ACTOR } from '../src/worker/provider/db/audit';
import { countUsers, insertUser } from '../src/worker/provider/db/users';
import type { Env } from '../src/worker/env';
import { fillDemoData } from './demo-data';
import { withLocalEnv } from './local-env';

export const DEMO_ADMIN_EMAIL = 'admin@example.com';
export const demoAdminPassword = () => process.env.SEED_ADMIN_PASSWORD || 'demo-admin';

/** Seeds the demo admin and the demo data, only into an empty database so real data is never touched. */
export const seed = async (env: Pick<Env, 'DB'>) => {
  if ((await countUsers(env.DB)) > 0) return false;
  await insertUser(env.DB, {
    firstName: 'Demo',
    surname: 'Admin',
    email: DEMO_ADMIN_EMAIL,
    passwordHash: await hashPassword(demoAdminPassword()),
    role: 'admin',
  }, NO_ACTOR);
  await fillDemoData(env.DB);
  return true;
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const seeded = await withLocalEnv(seed);
  console.log(seeded ? `Seeded the demo admin ${DEMO_ADMIN_EMAIL} and the demo data.` : 'The database already has users; nothing seeded.');
}
