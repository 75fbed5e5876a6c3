import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { pathToFileURL } from 'node:url';
import type { Sha256Factory } from '../src/worker/provider/db/backup-format';
import { RestoreError, restoreBackup } from '../src/worker/provider/db/restore';
import { localStateDir, withLocalEnv } from './local-env';
import { bin, run } from './run';

const USAGE = 'Usage: npm run db:restore -- (<backup key> | --file <path>) [--into <state folder>]';

const nodeSha256: Sha256Factory = () => {
  const hash = createHash('sha256');
  return { update: (bytes) => void hash.update(bytes), hex: async () => hash.digest('hex') };
};

const fileSource = (file: string) => ({
  open: async () => Readable.toWeb(createReadStream(file)) as unknown as ReadableStream<Uint8Array>,
});

/** Copies a backup out of the local R2 bucket into `folder`, streamed, and returns its path. */
export const downloadBackup = (key: string, folder: string) =>
  withLocalEnv(async (env) => {
    const object = await env.BACKUPS.get(key);
    if (!object) throw new RestoreError(`No backup '${key}' in the local bucket (${localStateDir()}). Keys are listed by GET /api/v1/settings/backups.`);
    const file = path.join(folder, path.basename(key));
    await pipeline(Readable.fromWeb(object.body as unknown as NodeReadableStream<Uint8Array>), createWriteStream(file));
    return file;
  });

/**
 * Restores a backup file (either format) into the empty local database under `into`, migrating
 * it first. The file is checked whole before anything is written.
 */
export const restoreFile = async (file: string, into: string) => {
  process.env.LOCAL_STATE_DIR = into;
  await run(bin('wrangler'), ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', into]);
  return withLocalEnv((env) => restoreBackup(env.DB, fileSource(file), { sha256: nodeSha256 }));
};

const parseArgs = (args: string[]) => {
  const options: { key?: string; file?: string; into?: string } = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--file' || arg === '--into') {
      const value = args[++i];
      if (!value) return null;
      options[arg === '--file' ? 'file' : 'into'] = value;
    } else if (!arg.startsWith('--') && !options.key) {
      options.key = arg;
    } else {
      return null;
    }
  }
  return Boolean(options.key) !== Boolean(options.file) ? options : null;
};

// `npm run db:restore -- <key>` restores a backup from the local R2 bucket, `--file <path>` a
// downloaded one; into the local database by default (it must hold no data), or into the one
// under --into, leaving the current data untouched.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const options = parseArgs(process.argv.slice(2));
  if (!options) {
    console.error(USAGE);
    process.exit(2);
  }
  const into = options.into ?? localStateDir();
  const folder = await mkdtemp(path.join(tmpdir(), 'staff-app-restore-'));
  try {
    const file = options.file ?? (await downloadBackup(options.key as string, folder));
    const restored = await restoreFile(file, into);
    console.log(`Restored ${options.file ?? options.key} into ${into}:`, restored);
  } catch (error) {
    if (!(error instanceof RestoreError)) throw error;
    console.error(`Restore refused: ${error.message} Nothing was written.`);
    process.exitCode = 1;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
