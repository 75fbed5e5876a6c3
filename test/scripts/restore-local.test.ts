import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RestoreError, type RestoreProgress } from '../../src/worker/provider/db/backup/restore';
import { d1Read, type D1Location } from '../../scripts/d1-cli';
import { withLocalD1Target } from '../../scripts/local-d1-target';
import { restoreFile } from '../../scripts/restore';
import { bin, runCaptured } from '../../scripts/run';
import { backupFile, TABLES, type Row } from './backup-file';

// `npm run db:restore` into a local database writes through a Worker in workerd
// (scripts/local-d1-target.ts); what it wrote is read back through wrangler's CLI, another way in.

let folder: string;
const written = async (bytes: Uint8Array, name: string) => {
  const file = path.join(folder, name);
  await writeFile(file, bytes);
  return file;
};
const stateDir = (name: string) => path.join(folder, name);
const where = (name: string): D1Location => ({ remote: false, persistTo: stateDir(name) });
const countsOf = async (name: string) => (await d1Read(where(name), [`SELECT ${Object.keys(TABLES).map((t) => `(SELECT count(*) FROM ${t}) AS ${t}`).join(', ')}`]))[0]?.[0];
const EMPTY = { users: 0, companies: 0, tickets: 0, audit_log: 0 };

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'staff-app-restore-local-'));
});
afterAll(async () => {
  delete process.env.LOCAL_STATE_DIR;
  await rm(folder, { recursive: true, force: true });
});

describe('restoring into a local database', () => {
  it('restores every row as the file holds it, awkward text included, reports progress, and refuses to restore over it', async () => {
    const file = await written(backupFile(TABLES), 'good.ndjson.gz');
    const progress: RestoreProgress[] = [];
    const restored = await restoreFile(file, stateDir('restored'), { onProgress: (step) => progress.push(step) });
    expect(restored).toMatchObject({ users: 2, companies: 1, tickets: 40, audit_log: 1 });
    for (const [table, rows] of Object.entries(TABLES)) {
      const columns = Object.keys(rows[0] as Row);
      const [stored] = await d1Read(where('restored'), [`SELECT ${columns.join(', ')} FROM ${table} ORDER BY id`]);
      expect(stored, table).toEqual(rows);
    }
    expect(progress.at(-1)).toMatchObject({ phase: 'write', rows: 44 });
    // The indexes set aside for the writes are back.
    const [indexes] = await d1Read(where('restored'), [`SELECT count(*) AS n FROM sqlite_master WHERE type = 'index' AND name = 'tickets_company_created'`]);
    expect(indexes).toEqual([{ n: 1 }]);

    const error = await restoreFile(file, stateDir('restored')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RestoreError);
    expect((error as Error).message).toMatch(/not empty \(users, companies, tickets, audit_log\)/);
    expect(await countsOf('restored')).toEqual({ users: 2, companies: 1, tickets: 40, audit_log: 1 });
  });

  it.each([
    ['a file that is no backup', () => new TextEncoder().encode('not a backup at all'), /neither a gzip-compressed backup nor a JSON one/],
    ['a row changed after the manifest was written', () => backupFile(TABLES, (lines) => lines.map((line) => line.replace('Ticket 3;', 'Ticket 4;'))), /rows of tickets do not match the manifest's SHA-256/],
  ] as const)('refuses %s with nothing written', async (_, make, message) => {
    const file = await written(make(), 'bad.ndjson.gz');
    const error = await restoreFile(file, stateDir('refused')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RestoreError);
    expect((error as Error).message).toMatch(message);
    expect(await countsOf('refused')).toEqual(EMPTY);
  });
});

describe('the migrations a local restore applies', () => {
  const schemaOf = async (name: string) =>
    (await d1Read(where(name), [`SELECT type, name, tbl_name FROM sqlite_master WHERE name NOT LIKE '_cf%' ORDER BY type, name`]))[0];
  const recordedIn = async (name: string) => (await d1Read(where(name), [`SELECT id, name FROM d1_migrations ORDER BY id`]))[0];

  it('are the ones wrangler applies, recorded as wrangler records them, so wrangler finds none left', async () => {
    await runCaptured(bin('wrangler'), ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', stateDir('by-wrangler')]);
    const file = await written(backupFile(TABLES), 'good.ndjson.gz');
    await restoreFile(file, stateDir('migrated'));
    expect(await schemaOf('migrated')).toEqual(await schemaOf('by-wrangler'));
    expect(await recordedIn('migrated')).toEqual(await recordedIn('by-wrangler'));
    const output = await runCaptured(bin('wrangler'), ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', stateDir('migrated')]);
    expect(output).toMatch(/No migrations to apply/);
  });
});

describe('the local target', () => {
  it('runs each write as one transaction and rejects with D1’s reason when a statement fails', async () => {
    // Migrated by the refusals above; nothing in it.
    process.env.LOCAL_STATE_DIR = stateDir('refused');
    const error = await withLocalD1Target((target) =>
      target.write([`INSERT INTO companies (id, name, name_key, address) VALUES (1, 'A', 'a', '')`, `INSERT INTO no_such_table VALUES (1)`]),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/no such table: no_such_table/);
    expect(await countsOf('refused')).toEqual(EMPTY);
  });

  it('answers reads with the rows of each statement, in order', async () => {
    process.env.LOCAL_STATE_DIR = stateDir('restored');
    const rows = await withLocalD1Target((target) => target.read([`SELECT id FROM users ORDER BY id`, `SELECT name FROM companies`]));
    expect(rows).toEqual([[{ id: 1 }, { id: 3 }], [{ name: 'Acme "Ltd"' }]]);
  });
});
