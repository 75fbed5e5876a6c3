import { applyD1Migrations, env } from 'cloudflare:test';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BackupResult } from '../../src/shared/types';
import { workerdSha256 } from '../../src/worker/provider/db/backup/format';
import { RestoreError, restoreBackup, type RestoreProgress, type RestoreSource } from '../../src/worker/provider/db/backup/restore';
import { d1Target } from '../../src/worker/provider/db/backup/restore-target';
import { DATA_TABLES } from '../../src/worker/provider/db/tables';
import { bytesSource, fileOf, gunzip, manifestOf, r2Source, storedBytes } from './backup-files';
import { api, signedIn } from './support';

let token: string;

const json = async <T>(res: Response) => (await res.json()) as T;
const rowsOf = async (db: D1Database, table: string) => (await db.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all()).results;
// Small batches and chunks, so even this small backup is written in many of each.
const restore = (source: RestoreSource, onProgress?: (progress: RestoreProgress) => void) =>
  restoreBackup(d1Target(env.RESTORE_DB, 2048), source, { sha256: workerdSha256, batchRows: 7, onProgress });
const INDEXES_SQL = "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name";
const indexesOf = async (db: D1Database) => (await db.prepare(INDEXES_SQL).all()).results;

/** Text with as many line breaks as a ticket description (10,000), a comment (5,000) and an address (500) hold. */
const PASTED = {
  description: `a${'\n'.repeat(9998)}b`,
  comment: `a${'\r\n'.repeat(2499)}b`,
  address: `a${'\n'.repeat(498)}b`,
};

const takeBackup = async () => {
  const res = await api('settings/backup-db', { method: 'POST', token });
  expect(res.status).toBe(201);
  return json<BackupResult>(res);
};

const emptyRestoreDb = async () => {
  for (const table of [...DATA_TABLES].reverse()) await env.RESTORE_DB.prepare(`DELETE FROM ${table}`).run();
};

const restoredRows = async () => {
  const counts = await env.RESTORE_DB.batch<{ n: number }>(DATA_TABLES.map((table) => env.RESTORE_DB.prepare(`SELECT count(*) AS n FROM ${table}`)));
  return counts.reduce((sum, result) => sum + (result.results[0]?.n ?? 0), 0);
};

/**
 * The restored database holds what the source held when the backup was taken: the source's audit
 * log has gained the backups' own entries since, each written once its file was complete.
 */
const expectEqualToSource = async () => {
  for (const table of DATA_TABLES) {
    const restored = await rowsOf(env.RESTORE_DB, table);
    const source = await rowsOf(env.DB, table);
    if (table !== 'audit_log') {
      expect(restored, table).toEqual(source);
      continue;
    }
    const newest = Math.max(0, ...restored.map((row) => Number(row.id)));
    expect(restored, table).toEqual(source.filter((row) => Number(row.id) <= newest));
    expect(source.filter((row) => Number(row.id) > newest).every((row) => row.action === 'backup'), 'only backups logged since').toBe(true);
  }
};

beforeAll(async () => {
  await applyD1Migrations(env.RESTORE_DB, env.TEST_MIGRATIONS);
  ({ token } = await signedIn());
  const company = await json<{ id: number }>(await api('companies', { method: 'POST', token, json: { name: "O'Brien & Sons, \"Ltd\"", address: 'Line 1\r\nLine 2\n' } }));
  const ticket = await json<{ id: number }>(
    await api('tickets', { method: 'POST', token, json: { title: "Robert'); DROP TABLE tickets;--", description: 'tab\there\nnew line ✓ 你好 🚀', companyId: company.id, dueAt: '2026-02-28' } }),
  );
  await api(`tickets/${ticket.id}/comments`, { method: 'POST', token, json: { body: "It's \\ back' || char(10) || 'slash" } });
  for (const minutes of [45, 30, 15]) await api(`tickets/${ticket.id}/time-entries`, { method: 'POST', token, json: { workDate: '2026-02-27', minutes, billable: false } });
  await api('invoices/gifs-sla/lines', { method: 'POST', token, json: { period: '2026-02', description: 'SLA', quantity: 1, unitPriceCents: 450_000, status: 'approved' } });
  await api('invoices/gifs/statements', { method: 'POST', token, json: { period: '2026-02' } });
  for (let i = 0; i < 20; i++) await api('tickets', { method: 'POST', token, json: { title: `filler ${i}` } });
  // Pasted logs: as many line breaks as each field's length allows.
  const log = await json<{ id: number }>(await api('tickets', { method: 'POST', token, json: { title: 'Pasted log', description: PASTED.description } }));
  expect((await api(`tickets/${log.id}/comments`, { method: 'POST', token, json: { body: PASTED.comment } })).status).toBe(201);
  expect((await api('companies', { method: 'POST', token, json: { name: 'Many Lines Pty', address: PASTED.address } })).status).toBe(201);
});
beforeEach(emptyRestoreDb);

describe('restoring a streamed backup', () => {
  it('restores it row for row on every table, awkward text included, with every index as the source has it', async () => {
    const { key, rows } = await takeBackup();
    const progress: RestoreProgress[] = [];
    const restored = await restore(r2Source(key), (step) => progress.push(step));
    expect(restored).toEqual(rows);
    await expectEqualToSource();
    expect((await env.RESTORE_DB.prepare('PRAGMA foreign_key_check').all()).results).toEqual([]);
    expect(await indexesOf(env.RESTORE_DB)).toEqual(await indexesOf(env.DB));
    // The writes report rising row counts up to every row of the file, against that total.
    const writes = progress.filter((step) => step.phase === 'write');
    const total = Object.values(rows).reduce((sum, n) => sum + n, 0);
    expect(writes.length).toBeGreaterThan(1);
    expect(writes.every((step, i) => step.totalRows === total && (i === 0 || step.rows > (writes[i - 1] as RestoreProgress).rows))).toBe(true);
    expect(writes.at(-1)?.rows).toBe(total);
  });

  it('restores text of thousands of line breaks exactly, each statement under D1’s limits', async () => {
    const { key } = await takeBackup();
    await restore(r2Source(key));
    const texts = await env.RESTORE_DB.batch<{ text: string }>([
      env.RESTORE_DB.prepare("SELECT description AS text FROM tickets WHERE title = 'Pasted log'"),
      env.RESTORE_DB.prepare('SELECT body AS text FROM ticket_comments WHERE body LIKE ?1').bind('a\r\n%'),
      env.RESTORE_DB.prepare("SELECT address AS text FROM companies WHERE name = 'Many Lines Pty'"),
    ]);
    expect(texts.map((result) => result.results[0]?.text)).toEqual([PASTED.description, PASTED.comment, PASTED.address]);
  });

  it('builds the indexes a stopped restore had set aside', async () => {
    const before = await indexesOf(env.RESTORE_DB);
    const { key } = await takeBackup();
    // What a restore stopped between dropping the indexes and building them again leaves.
    await env.RESTORE_DB.batch([
      env.RESTORE_DB.prepare('CREATE TABLE restore_pending_indexes (name TEXT PRIMARY KEY, sql TEXT NOT NULL)'),
      env.RESTORE_DB.prepare("INSERT INTO restore_pending_indexes SELECT name, sql FROM sqlite_master WHERE name IN ('time_entries_ticket', 'audit_log_at')"),
      env.RESTORE_DB.prepare('DROP INDEX time_entries_ticket'),
      env.RESTORE_DB.prepare('DROP INDEX audit_log_at'),
    ]);
    await restore(r2Source(key));
    expect(await indexesOf(env.RESTORE_DB)).toEqual(before);
    expect(await env.RESTORE_DB.prepare("SELECT name FROM sqlite_master WHERE name = 'restore_pending_indexes'").first()).toBeNull();
  });

  it('restores a downloaded copy of the file the same way', async () => {
    const { key } = await takeBackup();
    const download = await api(`settings/backups/download?key=${encodeURIComponent(key)}`, { token });
    await restore(bytesSource(new Uint8Array(await download.arrayBuffer())));
    await expectEqualToSource();
  });

  it('restores a backup taken before record versions (migration 0008): every record starts at version 1', async () => {
    const { key } = await takeBackup();
    const [head = '', ...rest] = (await gunzip(await storedBytes(key))).slice(0, -1).split('\n');
    const rows = rest.slice(0, -1).map((line) => {
      const parsed = JSON.parse(line) as { t: string; r: Record<string, unknown> };
      delete parsed.r.version;
      return JSON.stringify(parsed);
    });
    const header = JSON.parse(head) as { tables: string[] };
    const file = await fileOf([JSON.stringify({ ...header, schemaVersion: 7 }), ...rows, JSON.stringify({ manifest: await manifestOf(header.tables, rows) })]);
    await restore(bytesSource(file));
    for (const table of ['users', 'companies', 'tickets', 'statements', 'invoice_lines']) {
      const versions = (await env.RESTORE_DB.prepare(`SELECT DISTINCT version FROM ${table}`).all<{ version: number }>()).results;
      expect(versions, table).toEqual([{ version: 1 }]);
    }
  });

  it('refuses to restore over data', async () => {
    const { key } = await takeBackup();
    await restore(r2Source(key));
    const before = await restoredRows();
    await expect(restore(r2Source(key))).rejects.toThrow(/not empty/);
    expect(await restoredRows()).toBe(before);
  });
});

it('restores a backup in the older JSON format', async () => {
  // What the format 1 writer stored: every table's rows in one JSON object.
  const tables = Object.fromEntries(await Promise.all(DATA_TABLES.map(async (table) => [table, await rowsOf(env.DB, table)] as const)));
  const bytes = new TextEncoder().encode(JSON.stringify({ version: 1, createdAt: new Date().toISOString(), tables }));
  const restored = await restore(bytesSource(bytes));
  expect(restored).toEqual(Object.fromEntries(DATA_TABLES.map((table) => [table, tables[table]?.length])));
  await expectEqualToSource();
});

describe('refusing a damaged file with nothing written', () => {
  let lines: string[];
  beforeAll(async () => {
    const { key } = await takeBackup();
    lines = (await gunzip(await storedBytes(key))).slice(0, -1).split('\n');
  });

  const rowLines = () => lines.slice(1, -1);
  const header = () => JSON.parse(lines[0] as string) as { tables: string[]; schemaVersion: number };
  /** The file with its rows changed, and a manifest that matches the changed rows. */
  const rebuilt = async (rows: string[], head = lines[0] as string) =>
    fileOf([head, ...rows, JSON.stringify({ manifest: await manifestOf(header().tables, rows) })]);
  /** The rows with one row of `table` edited: its first, or the one after `skip` others. */
  const editRow = (table: string, edit: (row: Record<string, unknown>) => void, skip = 0) => {
    let before = skip;
    let done = false;
    return rowLines().map((line) => {
      const parsed = JSON.parse(line) as { t: string; r: Record<string, unknown> };
      if (done || parsed.t !== table || before-- > 0) return line;
      done = true;
      edit(parsed.r);
      return JSON.stringify(parsed);
    });
  };

  const damaged: [string, () => Promise<Uint8Array>, RegExp][] = [
    ['bytes that are not gzip inside', async () => new Uint8Array([0x1f, 0x8b, 8, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]), /not a complete gzip stream/],
    ['a gzip stream cut short', async () => (await fileOf(lines)).slice(0, -40), /truncated|not a complete gzip stream/],
    ['a file cut at a line, without its manifest', async () => fileOf(lines.slice(0, -1)), /ends before the manifest/],
    ['a file cut inside a line', async () => gzipText(`${lines.slice(0, 4).join('\n')}\n${(lines[4] as string).slice(0, 10)}`), /last line is cut off/],
    ['a count that does not match the manifest', async () => fileOf(lines.filter((line) => !line.startsWith('{"t":"time_entries"') || line !== lines.find((l) => l.startsWith('{"t":"time_entries"')))), /time_entries has 2 rows, the manifest says 3/],
    ['a row changed after the manifest was written', async () => fileOf([lines[0] as string, ...editRow('tickets', (r) => { r.title = 'tampered'; }), lines[lines.length - 1] as string]), /rows of tickets do not match the manifest's SHA-256/],
    ['a line that is not JSON', async () => fileOf([lines[0] as string, '{"t":"users",', ...lines.slice(1)]), /Line 2 is not valid JSON/],
    ['rows out of the header order', async () => rebuilt([...rowLines().filter((l) => l.startsWith('{"t":"tickets"')), ...rowLines().filter((l) => !l.startsWith('{"t":"tickets"'))]), /out of the header's order/],
    ['a table the database does not have', async () => rebuilt(rowLines(), JSON.stringify({ ...header(), tables: [...header().tables, 'secrets'] })), /does not have: secrets/],
    ['a column the database does not have', async () => rebuilt(editRow('users', (r) => { r.is_admin = 1; })), /users has no column "is_admin"/],
    ['a value that is not text, a number or null', async () => rebuilt(editRow('users', (r) => { r.surname = { $gt: '' }; })), /users.surname is not text/],
    // Rows after a table's first are checked against it, not the database: these say what is wrong all the same.
    ['a column the database does not have, in a later row', async () => rebuilt(editRow('companies', (r) => { r.is_admin = 1; }, 1)), /companies has no column "is_admin"/],
    ['a value that is not text, a number or null, in a later row', async () => rebuilt(editRow('companies', (r) => { r.name = [1]; }, 1)), /companies.name is not text/],
    ['a later row with fewer columns than the first', async () => rebuilt(editRow('companies', (r) => { delete r.name; }, 1)), /a row of companies has other columns than the rows before it/],
    ['a later row with its columns in another order', async () => rebuilt(editRow('companies', (r) => { const { id, ...rest } = r; for (const key of Object.keys(r)) delete r[key]; Object.assign(r, rest, { id }); }, 1)), /a row of companies has other columns than the rows before it/],
    ['a line that is not UTF-8', async () => gzipBytes([lines[0] as string, '{"t":"users","r":{"surname":"\u00ff"}}', ...lines.slice(1)], 1), /Line 2 is not valid JSON/],
    ['a newer schema than the database', async () => rebuilt(rowLines(), JSON.stringify({ ...header(), schemaVersion: header().schemaVersion + 1 })), /newer than this database's/],
    ['a first line that is no header', async () => fileOf(lines.slice(1)), /first line is not the header/],
    ['an empty file', async () => fileOf([]), /The file is empty/],
    ['a line after the manifest', async () => fileOf([...lines, lines[1] as string]), /follows the manifest/],
    ['a JSON file that is no backup', async () => new TextEncoder().encode('{"version":3,"tables":{}}'), /neither a format 2 backup/],
    ['a truncated JSON file', async () => new TextEncoder().encode('{"version":1,"tables":{"users":['), /neither a gzip-compressed backup nor a JSON one/],
  ];

  it.each(damaged)('refuses %s', async (_, make, message) => {
    const error = await restore(bytesSource(await make())).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RestoreError);
    expect((error as Error).message).toMatch(message);
    expect(await restoredRows()).toBe(0);
  });

  it('deletes what it wrote when the database refuses a row part way through, and keeps its indexes', async () => {
    const indexes = await indexesOf(env.RESTORE_DB);
    // A row that passes every check of the file but breaks a constraint of the table, late in the file.
    const file = await rebuilt(editRow('invoice_lines', (r) => { r.status = 'bogus'; }));
    await expect(restore(bytesSource(file))).rejects.toThrow(/CHECK constraint failed/);
    expect(await restoredRows()).toBe(0);
    expect(await indexesOf(env.RESTORE_DB)).toEqual(indexes);
  });
});

/** The lines gzipped, line `bad` with its first 'ÿ' (C3 BF in UTF-8) made a lone FF byte, which no UTF-8 text holds. */
const gzipBytes = (lines: string[], bad: number) => {
  const bytes = new TextEncoder().encode(lines.map((line) => `${line}\n`).join(''));
  let at = 0;
  for (let line = 0; line < bad; line += 1) at = bytes.indexOf(0x0a, at) + 1;
  const ff = bytes.indexOf(0xc3, at);
  const broken = new Uint8Array([...bytes.subarray(0, ff), 0xff, ...bytes.subarray(ff + 2)]);
  return new Response(new Response(broken).body?.pipeThrough(new CompressionStream('gzip'))).arrayBuffer().then((b) => new Uint8Array(b));
};

const gzipText = (text: string) => new Response(new Response(text).body?.pipeThrough(new CompressionStream('gzip'))).arrayBuffer().then((b) => new Uint8Array(b));
