import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { pathToFileURL } from 'node:url';
import { unstable_readConfig } from 'wrangler';
import type { Sha256Factory } from '../src/worker/provider/db/backup/format';
import { RestoreError, restoreBackup, type RestoreOptions } from '../src/worker/provider/db/backup/restore';
import { missingAttachmentObjects } from '../src/worker/provider/db/attachment-objects';
import { missingAttachmentsThroughCli } from './attachment-check';
import { cliTarget, type D1Location } from './d1-cli';
import { withLocalD1Target } from './local-d1-target';
import { applyMigrations } from './local-migrations';
import { localStateDir, withLocalEnv } from './local-env';
import { progressReporter } from './progress';
import { bin, run } from './run';

const USAGE = 'Usage: npm run db:restore -- (<backup key> | --file <path>) [--into <state folder> | --remote]';

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

/** The name of the R2 bucket wrangler.toml binds as `binding`. */
const bucketNamed = (binding: 'BACKUPS' | 'FILES') => {
  const bucket = unstable_readConfig({ config: 'wrangler.toml' }).r2_buckets.find((bound: { binding: string }) => bound.binding === binding)?.bucket_name;
  if (!bucket) throw new RestoreError(`wrangler.toml has no R2 bucket bound as ${binding}.`);
  return bucket;
};

/** Copies a backup out of the deployed R2 bucket (the `BACKUPS` binding of wrangler.toml). */
const downloadRemoteBackup = async (key: string, folder: string) => {
  const bucket = bucketNamed('BACKUPS');
  const file = path.join(folder, path.basename(key));
  await run(bin('wrangler'), ['r2', 'object', 'get', `${bucket}/${key}`, '--remote', '--file', file]);
  return file;
};

type Options = Pick<RestoreOptions, 'onProgress'>;

/**
 * Restores a backup file (either format) into an empty database through `wrangler d1 execute`:
 * the deployed one, or a local one standing in for it. The migrations are applied first.
 */
export const restoreFileThroughCli = async (file: string, location: D1Location, options: Options = {}) => {
  const where = location.remote ? ['--remote'] : ['--local', '--persist-to', location.persistTo];
  await run(bin('wrangler'), ['d1', 'migrations', 'apply', 'DB', ...where]);
  return restoreBackup(cliTarget(location), fileSource(file), { sha256: nodeSha256, ...options });
};

/**
 * Restores a backup file (either format) into the empty local database under `into`, migrating
 * it first. The file is checked whole before anything is written. The migrations and the writes
 * run in workerd through a Worker of the restore's own (local-d1-target.ts), not through
 * wrangler's CLI and proxy.
 */
export const restoreFile = async (file: string, into: string, options: Options = {}) => {
  process.env.LOCAL_STATE_DIR = into;
  return withLocalD1Target(async (target) => {
    await applyMigrations(target);
    return restoreBackup(target, fileSource(file), { sha256: nodeSha256, ...options });
  });
};

/** Attachments whose files the bucket does not hold: the backup has their keys and SHA-256, not the files. */
const reportMissingFiles = ({ checked, missing }: Awaited<ReturnType<typeof missingAttachmentObjects>>) => {
  if (!missing.length) return console.log(`All ${checked} attachment files are in the FILES bucket.`);
  console.warn(`${missing.length} of ${checked} attachment files are missing from the FILES bucket:`);
  for (const file of missing) console.warn(`  ticket ${file.ticketId}: ${file.key} sha256 ${file.sha256}`);
};

interface Args {
  key?: string;
  file?: string;
  into?: string;
  remote?: boolean;
}

const parseArgs = (args: string[]) => {
  const options: Args = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--file' || arg === '--into') {
      const value = args[++i];
      if (!value) return null;
      options[arg === '--file' ? 'file' : 'into'] = value;
    } else if (arg === '--remote') {
      options.remote = true;
    } else if (!arg.startsWith('--') && !options.key) {
      options.key = arg;
    } else {
      return null;
    }
  }
  if (options.remote && options.into) return null;
  return Boolean(options.key) !== Boolean(options.file) ? options : null;
};

// `npm run db:restore -- <key>` restores a backup from the local R2 bucket, `--file <path>` a
// downloaded one; into the local database by default (it must hold no data), into the one under
// --into, leaving the current data untouched, or with --remote into the deployed database (the
// key then names a backup in the deployed bucket). docs/operations.md walks through each.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.env.WRANGLER_SEND_METRICS ??= 'false';
  const options = parseArgs(process.argv.slice(2));
  if (!options) {
    console.error(USAGE);
    process.exit(2);
  }
  const into = options.into ?? localStateDir();
  const folder = await mkdtemp(path.join(tmpdir(), 'staff-app-restore-'));
  const progress = progressReporter();
  try {
    const file = options.file ?? (options.remote ? await downloadRemoteBackup(options.key as string, folder) : await downloadBackup(options.key as string, folder));
    const started = performance.now();
    const restored = options.remote
      ? await restoreFileThroughCli(file, { remote: true }, { onProgress: progress.report })
      : await restoreFile(file, into, { onProgress: progress.report });
    progress.done();
    const rows = Object.values(restored).reduce((sum, n) => sum + n, 0);
    console.log(`Restored ${options.file ?? options.key} into ${options.remote ? 'the deployed database' : into}: ${rows.toLocaleString('en-US')} rows in ${((performance.now() - started) / 1000).toFixed(1)} s.`, restored);
    reportMissingFiles(
      options.remote
        ? await missingAttachmentsThroughCli({ remote: true }, bucketNamed('FILES'))
        : await withLocalEnv((env) => missingAttachmentObjects(env.DB, env.FILES)),
    );
  } catch (error) {
    progress.done();
    if (!(error instanceof RestoreError)) throw error;
    console.error(`Restore refused: ${error.message} Nothing was written.`);
    process.exitCode = 1;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
