import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RestoreError } from '../../src/worker/provider/db/backup/restore';
import { missingAttachmentsThroughCli } from '../../scripts/attachment-check';
import { d1Read, d1Write, type D1Location } from '../../scripts/d1-cli';
import { bin, runCaptured } from '../../scripts/run';
import { restoreFileThroughCli } from '../../scripts/restore';
import { backupFile, TABLES, type Row } from './backup-file';

// `npm run db:restore -- … --remote` runs through `wrangler d1 execute --remote`; here the same
// code runs with `--local --persist-to` a throwaway folder in place of `--remote`.

let folder: string;
const written = async (bytes: Uint8Array, name: string) => {
  const file = path.join(folder, name);
  await writeFile(file, bytes);
  return file;
};
const local = (name: string): D1Location => ({ remote: false, persistTo: path.join(folder, name) });
const countsOf = async (where: D1Location) => (await d1Read(where, [`SELECT ${Object.keys(TABLES).map((t) => `(SELECT count(*) FROM ${t}) AS ${t}`).join(', ')}`]))[0]?.[0];

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'staff-app-restore-cli-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('restoring through wrangler d1 execute', () => {
  const target = () => local('restored');

  it('restores every row as the file holds it, awkward text included, and refuses to restore over it', async () => {
    const file = await written(backupFile(TABLES), 'good.ndjson.gz');
    const restored = await restoreFileThroughCli(file, target());
    expect(restored).toMatchObject({ users: 2, companies: 1, tickets: 40, audit_log: 1 });
    for (const [table, rows] of Object.entries(TABLES)) {
      const columns = Object.keys(rows[0] as Row);
      const [stored] = await d1Read(target(), [`SELECT ${columns.join(', ')} FROM ${table} ORDER BY id`]);
      expect(stored, table).toEqual(rows);
    }

    const error = await restoreFileThroughCli(file, target()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RestoreError);
    expect((error as Error).message).toMatch(/not empty \(users, companies, tickets, audit_log\)/);
    expect(await countsOf(target())).toEqual({ users: 2, companies: 1, tickets: 40, audit_log: 1 });
  });

  it('names the attachments whose files the bucket does not hold', async () => {
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    await d1Write(target(), [
      `INSERT INTO attachments (id, ticket_id, key, name, bytes, content_type, sha256, user_id) VALUES
        (1, 10, 'attachments/10/kept', 'kept.txt', 4, 'text/plain', '${sha('kept')}', 1),
        (2, 11, 'attachments/11/lost', 'lost.txt', 4, 'text/plain', '${sha('lost')}', 3)`,
    ]);
    const kept = await written(new TextEncoder().encode('kept'), 'kept.txt');
    await runCaptured(bin('wrangler'), ['r2', 'object', 'put', 'staff-app-files/attachments/10/kept', '--local', '--persist-to', path.join(folder, 'restored'), '--file', kept]);
    expect(await missingAttachmentsThroughCli(target(), 'staff-app-files')).toEqual({
      checked: 2,
      missing: [{ id: 2, ticketId: 11, key: 'attachments/11/lost', sha256: sha('lost') }],
    });
  });
});

describe('refusing a file with nothing written', () => {
  const target = () => local('refused');
  const refusals: [string, () => Uint8Array, RegExp][] = [
    ['a file that is no backup', () => new TextEncoder().encode('not a backup at all'), /neither a gzip-compressed backup nor a JSON one/],
    ['a row changed after the manifest was written', () => backupFile(TABLES, (lines) => lines.map((line) => line.replace('Ticket 3;', 'Ticket 4;'))), /rows of tickets do not match the manifest's SHA-256/],
    ['a row missing', () => backupFile(TABLES, (lines) => lines.slice(1)), /users has 1 rows, the manifest says 2/],
  ];

  it.each(refusals)('refuses %s', async (_, make, message) => {
    const file = await written(make(), 'bad.ndjson.gz');
    const error = await restoreFileThroughCli(file, target()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RestoreError);
    expect((error as Error).message).toMatch(message);
    expect(await countsOf(target())).toEqual({ users: 0, companies: 0, tickets: 0, audit_log: 0 });
  });
});
