import { localStateDir, withLocalEnv } from './local-env';
import { asBackup, restoreBackup } from '../src/worker/provider/db/restore';
import { bin, run } from './run';

// `npm run db:restore -- <key> [--into <state folder>]`: reads a backup that settings/backup-db
// wrote to the local R2 bucket and restores it into an empty local database, by default the
// same one, or the one under --into (migrated first), leaving the current data untouched.
const [key, flag, into] = process.argv.slice(2);
if (!key || (flag && flag !== '--into') || (flag && !into)) {
  console.error('Usage: npm run db:restore -- <backup key> [--into <state folder>]');
  process.exit(2);
}

const source = localStateDir();
const backup = await withLocalEnv(async (env) => {
  const object = await env.BACKUPS.get(key);
  if (!object) throw new Error(`No backup '${key}' in the local bucket (${source}). Keys are listed by GET /api/v1/settings/backups.`);
  return asBackup(JSON.parse(await object.text()));
});

const target = into ?? source;
process.env.LOCAL_STATE_DIR = target;
await run(bin('wrangler'), ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', target]);
const restored = await withLocalEnv((env) => restoreBackup(env.DB, backup));
console.log(`Restored ${key} into ${target}:`, restored);
