import { env } from 'cloudflare:test';
import { expect } from 'vitest';
import type { BackupHeader, Manifest, Row } from '../../src/worker/provider/db/backup/format';
import { gunzipStream } from '../../src/worker/provider/db/backup/gzip';
import type { RestoreSource } from '../../src/worker/provider/db/backup/restore';
import { startBackup, stepBackup, type BackupOptions, type StepBudget } from '../../src/worker/provider/db/backup/write';
import type { BackupResult } from '../../src/shared/types';

/** A backup file taken apart line by line, read here independently of the restore code. */
export interface BackupFile {
  lines: string[];
  header: BackupHeader;
  rows: { t: string; r: Row }[];
  manifest: Manifest;
}

/** A whole gzip file as text, its members one after another (db/backup/gzip.ts). */
export const gunzip = async (bytes: Uint8Array | ArrayBuffer) => {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of gunzipStream(new Response(bytes).body as ReadableStream<Uint8Array>)) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
};

export const gzip = async (text: string) =>
  new Uint8Array(await new Response(new Response(text).body?.pipeThrough(new CompressionStream('gzip'))).arrayBuffer());

export const sha256Hex = async (data: string | Uint8Array) =>
  Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', typeof data === 'string' ? new TextEncoder().encode(data) : data)), (b) => b.toString(16).padStart(2, '0')).join('');

export const storedBytes = async (key: string) => {
  const object = await env.BACKUPS.get(key);
  expect(object, `R2 object ${key}`).not.toBeNull();
  return new Uint8Array(await (object as R2ObjectBody).arrayBuffer());
};

export const parseBackup = async (bytes: Uint8Array): Promise<BackupFile> => {
  const text = await gunzip(bytes);
  expect(text.endsWith('\n'), 'the file ends with a newline').toBe(true);
  const lines = text.slice(0, -1).split('\n');
  const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    lines,
    header: parsed[0] as unknown as BackupHeader,
    rows: parsed.slice(1, -1) as { t: string; r: Row }[],
    manifest: (parsed[parsed.length - 1] as { manifest: Manifest }).manifest,
  };
};

export const readBackup = async (key: string) => parseBackup(await storedBytes(key));

/** The rows of `table` in a backup, in file order. */
export const rowsIn = (file: BackupFile, table: string) => file.rows.filter(({ t }) => t === table).map(({ r }) => r);

/** A manifest computed from row lines as docs/operations.md#backups defines it, for files built by tests. */
export const manifestOf = async (tables: string[], rowLines: string[]): Promise<Manifest> => {
  const manifest: Manifest = {};
  for (const table of tables) {
    const own = rowLines.filter((line) => (JSON.parse(line) as { t: string }).t === table);
    manifest[table] = { rows: own.length, sha256: await sha256Hex(own.map((line) => `${line}\n`).join('')) };
  }
  return manifest;
};

/** A gzip-compressed backup file made of the given lines, each ended with '\n'. */
export const fileOf = (lines: string[]) => gzip(lines.map((line) => `${line}\n`).join(''));

export const bytesSource = (bytes: Uint8Array): RestoreSource => ({ open: async () => new Response(bytes).body as ReadableStream<Uint8Array> });

export const r2Source = (key: string): RestoreSource => ({
  open: async () => ((await env.BACKUPS.get(key)) as R2ObjectBody).body,
});

/** A whole backup here and now, step after step, as the every-minute trigger would take them one a minute. */
export const backupAtOnce = async (options: BackupOptions, budget?: StepBudget): Promise<BackupResult> => {
  const { runId, queries } = await startBackup(env.DB, env.BACKUPS, options);
  for (let spent = queries; ; spent = 0) {
    const outcome = await stepBackup(env.DB, env.BACKUPS, runId, budget, spent);
    if (!outcome) throw new Error('The backup was taken over by another step');
    if (outcome.done) return outcome.backup;
  }
};
