import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Row } from '../src/worker/provider/db/backup/format';
import type { RestoreTarget } from '../src/worker/provider/db/backup/restore-target';
import { bin } from './run';

/**
 * Which database `wrangler d1 execute` reaches: the deployed one (`--remote`, needs
 * `wrangler login` or CLOUDFLARE_API_TOKEN), or a local one, which stands in for it in tests so
 * the remote path runs the very same commands.
 */
export type D1Location = { remote: true } | { remote: false; persistTo: string };

export const whereArgs = (location: D1Location) => (location.remote ? ['--remote'] : ['--local', '--persist-to', location.persistTo]);

/** Remote writes go as imported files (one transaction each, a few seconds to start): fewer and larger. */
export const CLI_CHUNK_BYTES = 16 * 1024 * 1024;

/** Runs wrangler quietly and returns its standard output; fails with what it printed. */
const wrangler = (args: string[]) =>
  new Promise<string>((resolve, reject) => {
    const child = spawn(bin('wrangler'), args, { env: { ...process.env, WRANGLER_SEND_METRICS: 'false' }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      const stdout = Buffer.concat(out).toString('utf8');
      if (code === 0) return resolve(stdout);
      reject(new Error(`wrangler ${args.slice(0, 3).join(' ')} failed: ${errorText(stdout, Buffer.concat(err).toString('utf8'))}`));
    });
  });

/** The reason in wrangler's answer: `{ error: { text } }` with --json, or the last lines it printed. */
const errorText = (stdout: string, stderr: string) => {
  try {
    const parsed = JSON.parse(stdout) as { error?: { text?: string; message?: string } };
    const text = parsed.error?.text ?? parsed.error?.message;
    if (text) return text;
  } catch {
    // not JSON: fall back to what was printed
  }
  return `${stderr}\n${stdout}`.trim().split('\n').slice(-6).join('\n');
};

/** Read statements, run together with `--command`; the rows of each. */
export const d1Read = async (location: D1Location, statements: string[]): Promise<Row[][]> => {
  const stdout = await wrangler(['d1', 'execute', 'DB', ...whereArgs(location), '--json', '--command', statements.join(';\n')]);
  return (JSON.parse(stdout) as { results?: Row[] }[]).map((result) => result.results ?? []);
};

/** Statements written to a file and run with `--file`: D1 runs the file as one transaction. */
export const d1Write = async (location: D1Location, statements: string[]) => {
  if (!statements.length) return;
  const folder = await mkdtemp(path.join(tmpdir(), 'staff-app-sql-'));
  try {
    const file = path.join(folder, 'statements.sql');
    await writeFile(file, statements.map((sql) => `${sql.replace(/;\s*$/, '')};\n`).join(''));
    await wrangler(['d1', 'execute', 'DB', ...whereArgs(location), '--json', '--yes', '--file', file]);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
};

/** The restore's target through wrangler: the deployed database, or a local one in its place. */
export const cliTarget = (location: D1Location, chunkBytes = CLI_CHUNK_BYTES): RestoreTarget => ({
  read: (statements) => d1Read(location, statements),
  write: (statements) => d1Write(location, statements),
  chunkBytes,
});
