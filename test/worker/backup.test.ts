import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BackupListItem, BackupResult } from '../../src/shared/types';
import { DATA_TABLES } from '../../src/worker/provider/db/tables';
import { api, attemptLogin, expectError, readJson, signedIn, sleep } from './support';

const KEY = /^backups\/\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z\.json$/;

interface BackupDocument {
  version: number;
  createdAt: string;
  tables: Record<string, Record<string, unknown>[]>;
}

const countRows = async (table: string) =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<number>('n')) ?? 0;

const rowCounts = async () =>
  Object.fromEntries(await Promise.all(DATA_TABLES.map(async (table) => [table, await countRows(table)] as const)));

/** Rows in every kind of table, so the counts compared below are not all zero. */
const seedEveryTable = async () => {
  const { user } = await signedIn();
  await attemptLogin({ email: 'nobody@example.com', password: 'wrong' }); // a login_attempts row
  await env.DB.batch([
    env.DB.prepare("INSERT INTO companies (id, name) VALUES (1, 'Acme'), (2, 'Globex')"),
    env.DB.prepare("INSERT INTO ticket_categories (id, name) VALUES (1, 'Hardware')"),
    env.DB.prepare("INSERT INTO tickets (id, title, company_id, category_id, reporter_id) VALUES (1, 'Printer', 1, 1, ?1)").bind(user.id),
    env.DB.prepare("INSERT INTO ticket_comments (ticket_id, user_id, body) VALUES (1, ?1, 'On it'), (1, ?1, 'Done')").bind(user.id),
    env.DB.prepare("INSERT INTO time_entries (ticket_id, user_id, work_date, minutes) VALUES (1, ?1, '2026-01-05', 45)").bind(user.id),
    env.DB.prepare("INSERT INTO statements (id, company_id, period) VALUES (1, 1, '2026-01')"),
    env.DB.prepare(
      "INSERT INTO invoice_lines (source, company_id, period, amount_cents, statement_id) VALUES ('gifs-sla', 1, '2026-01', 1250, 1)",
    ),
  ]);
};

const backup = async (token: string) => {
  const res = await api('settings/backup-db', { method: 'POST', token });
  const { status, body } = await readJson<BackupResult>(res);
  expect(status).toBe(201);
  return body;
};

const storedDocument = async (key: string) => {
  const object = await env.BACKUPS.get(key);
  expect(object, `R2 object ${key}`).not.toBeNull();
  const text = (await object?.text()) ?? '';
  return { document: JSON.parse(text) as BackupDocument, size: object?.size };
};

let token: string;
beforeAll(async () => {
  await seedEveryTable();
  ({ token } = await signedIn());
});

describe('POST settings/backup-db', () => {
  it('answers 401 without a token and writes nothing', async () => {
    const before = await env.BACKUPS.list({ prefix: 'backups/' });
    await expectError(await api('settings/backup-db', { method: 'POST' }), 401);
    expect((await env.BACKUPS.list({ prefix: 'backups/' })).objects).toHaveLength(before.objects.length);
  });

  it('writes every row of every table to R2 under a timestamped key', async () => {
    const started = Date.now();
    // Counted first: the backup's own audit entry is written after its snapshot.
    const counts = await rowCounts();
    const result = await backup(token);

    expect(result.key).toMatch(KEY);
    expect(result.key).toBe(`backups/${result.createdAt.replace(/:/g, '-')}.json`);
    expect(Date.parse(result.createdAt)).toBeGreaterThanOrEqual(started - 1000);
    expect(result.rows).toEqual(counts);
    expect(result.rows.users).toBe(await countRows('users'));
    expect(result.rows.users).toBeGreaterThanOrEqual(2);
    expect(result.rows.login_attempts).toBeGreaterThanOrEqual(1);

    const { document, size } = await storedDocument(result.key);
    expect(size).toBe(result.bytes);
    expect(document).toMatchObject({ version: expect.any(Number), createdAt: result.createdAt });
    expect(Object.keys(document.tables).sort()).toEqual([...DATA_TABLES].sort());
    for (const table of DATA_TABLES) {
      expect(document.tables[table], table).toHaveLength(counts[table] ?? -1);
    }
  });

  it('stores rows as they are in the database, every column', async () => {
    const { key } = await backup(token);
    const { document } = await storedDocument(key);
    const { results } = await env.DB.prepare('SELECT * FROM invoice_lines ORDER BY rowid').all();
    expect(document.tables.invoice_lines).toEqual(results);
    const users = await env.DB.prepare('SELECT id, email, password_hash FROM users ORDER BY id').all();
    expect(document.tables.users?.map(({ id, email, password_hash }) => ({ id, email, password_hash }))).toEqual(users.results);
  });
});

describe('GET settings/backups', () => {
  it('answers 401 without a token', async () => {
    await expectError(await api('settings/backups'), 401);
  });

  it('lists the backups, newest first', async () => {
    const first = await backup(token);
    await sleep(20);
    const second = await backup(token);
    const { status, body } = await readJson<{ items: BackupListItem[] }>(await api('settings/backups', { token }));
    expect(status).toBe(200);
    const keys = body.items.map((item) => item.key);
    expect(keys).toContain(first.key);
    expect(keys.indexOf(second.key)).toBe(0);
    expect(keys.indexOf(second.key)).toBeLessThan(keys.indexOf(first.key));
    expect(body.items.find((item) => item.key === second.key)).toMatchObject({ bytes: second.bytes });
    const times = body.items.map((item) => Date.parse(item.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });
});

describe('DATA_TABLES', () => {
  // A table added by a migration but missing here would silently be left out of every backup.
  it('names exactly the tables of the migrated schema', async () => {
    const { results } = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all<{ name: string }>();
    const dataTables = results
      .map(({ name }) => name)
      .filter((name) => !name.startsWith('sqlite_') && !name.startsWith('_cf_') && name !== 'd1_migrations');
    expect([...DATA_TABLES].sort()).toEqual(dataTables.sort());
  });
});
