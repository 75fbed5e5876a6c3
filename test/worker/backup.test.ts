import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BackupList, BackupResult } from '../../src/shared/types';
import { DATA_TABLES, DERIVED_TABLE_PREFIXES, SYSTEM_TABLES } from '../../src/worker/provider/db/tables';
import { backupAtOnce, manifestOf, parseBackup, readBackup, rowsIn, sha256Hex, storedBytes } from './backup-files';
import { api, attemptLogin, expectError, readJson, signedIn, sleep, type TestUser } from './support';

const KEY = /^backups\/\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z\.ndjson\.gz$/;

const countRows = async (table: string) =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<number>('n')) ?? 0;

const rowCounts = async () =>
  Object.fromEntries(await Promise.all(DATA_TABLES.map(async (table) => [table, await countRows(table)] as const)));

const rowsOf = async (table: string) => (await env.DB.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all()).results;

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

let token: string;
let caller: TestUser;
beforeAll(async () => {
  await seedEveryTable();
  ({ token, user: caller } = await signedIn());
});

describe('POST settings/backup-db', () => {
  it('answers 401 without a token and writes nothing', async () => {
    const before = await env.BACKUPS.list({ prefix: 'backups/' });
    await expectError(await api('settings/backup-db', { method: 'POST' }), 401);
    expect((await env.BACKUPS.list({ prefix: 'backups/' })).objects).toHaveLength(before.objects.length);
  });

  it('writes every row of every table to R2 under a timestamped key, with who made it', async () => {
    const started = Date.now();
    // Counted first: the backup's own audit entry is written after its snapshot.
    const counts = await rowCounts();
    const result = await backup(token);

    expect(result.key).toMatch(KEY);
    expect(result.key).toBe(`backups/${result.createdAt.replace(/:/g, '-')}.ndjson.gz`);
    expect(Date.parse(result.createdAt)).toBeGreaterThanOrEqual(started - 1000);
    expect(result.rows).toEqual(counts);
    expect(result.rows.users).toBeGreaterThanOrEqual(2);
    expect(result.rows.login_attempts).toBeGreaterThanOrEqual(1);

    const object = await env.BACKUPS.head(result.key);
    expect(object?.size).toBe(result.bytes);
    expect(object?.httpMetadata?.contentType).toBe('application/gzip');
    const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
    expect(object?.customMetadata).toEqual({ madeBy: `user:${caller.id}`, rows: String(total) });
  });

  it('writes a header, every row as it is in the database, and a manifest of counts and SHA-256', async () => {
    const { key, createdAt } = await backup(token);
    const file = await readBackup(key);
    const version = await env.DB.prepare('SELECT max(CAST(name AS INTEGER)) AS v FROM d1_migrations').first<number>('v');
    expect(file.header).toEqual({ format: 2, createdAt, schemaVersion: version, tables: [...DATA_TABLES] });
    expect(version).toBeGreaterThanOrEqual(6);

    for (const table of DATA_TABLES) {
      const stored = await rowsOf(table);
      if (table !== 'audit_log') {
        expect(rowsIn(file, table), table).toEqual(stored);
        continue;
      }
      // The backup's own entry is written once its file is complete, so only it is newer.
      const newest = Math.max(0, ...rowsIn(file, table).map((row) => Number(row.id)));
      expect(rowsIn(file, table), table).toEqual(stored.filter((row) => Number(row.id) <= newest));
      expect(stored.filter((row) => Number(row.id) > newest).map((row) => row.action)).toEqual(['backup']);
    }
    // Rows come table by table in the header's order.
    const order = file.rows.map(({ t }) => DATA_TABLES.indexOf(t as never));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // The hashes are recomputed here from the lines as written, not taken from the writer.
    expect(file.manifest).toEqual(await manifestOf([...DATA_TABLES], file.lines.slice(1, -1)));
    expect(file.manifest.users?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('carries the current sign-in windows and drops ended ones, which count for nothing', async () => {
    const now = Math.floor(Date.now() / 1000);
    await env.DB.prepare('INSERT INTO login_attempts (key, window_start, count) VALUES (?1, ?2, 3), (?3, ?4, 4)')
      // The longest sign-in window (the per-account cap) is an hour; this one ended before that.
      .bind('email:ended@example.com', now - 61 * 60, 'email:current@example.com', now - 60)
      .run();
    const file = await readBackup((await backup(token)).key);
    const keys = rowsIn(file, 'login_attempts').map((row) => row.key);
    expect(keys).toContain('email:current@example.com');
    expect(keys).not.toContain('email:ended@example.com');
    expect(await countRows('login_attempts')).toBe(keys.length);
  });

  it('streams a file larger than an upload part in several parts, row for row', async () => {
    // Random text barely compresses, so these rows make more than one 5 MiB part of gzip.
    const noise = (n: number) => Array.from(crypto.getRandomValues(new Uint8Array(n)), (b) => b.toString(36)).join('');
    try {
      for (let batch = 0; batch < 6; batch++) {
        await env.DB.batch(
          Array.from({ length: 100 }, (_, i) =>
            env.DB.prepare('INSERT INTO tickets (title, description) VALUES (?1, ?2)').bind(`bulk ${batch}-${i}`, noise(12_000)),
          ),
        );
      }
      const result = await backupAtOnce({ madeBy: { type: 'schedule' }, pageRows: 40 });
      const bytes = await storedBytes(result.key);
      expect(bytes.byteLength).toBe(result.bytes);
      expect(result.bytes).toBeGreaterThan(5 * 1024 * 1024);
      // A multipart object's ETag ends in the number of its parts.
      expect((await env.BACKUPS.head(result.key))?.etag).toMatch(/-2$/);
      const file = await parseBackup(bytes);
      expect(rowsIn(file, 'tickets')).toEqual(await rowsOf('tickets'));
      expect(file.manifest.tickets).toEqual((await manifestOf(['tickets'], file.lines.slice(1, -1))).tickets);
      await env.BACKUPS.delete(result.key);
    } finally {
      await env.DB.prepare("DELETE FROM tickets WHERE title LIKE 'bulk %'").run();
    }
  });
});

describe('GET settings/backups', () => {
  it('is for admins only: a backup holds every password hash', async () => {
    const { key } = await backup(token);
    for (const role of ['staff', 'billing'] as const) {
      const other = await signedIn(role);
      const body = await expectError(await api(`settings/backups/download?key=${encodeURIComponent(key)}`, { token: other.token }), 403);
      expect(body.message).toMatch(/admin/);
      // Making a backup stays open to every signed-in user (docs/architecture.md#roles-and-the-audit-log).
      expect((await api('settings/backup-db', { method: 'POST', token: other.token })).status).toBe(201);
    }
  });

  it('answers 401 without a token', async () => {
    await expectError(await api('settings/backups'), 401);
  });

  it('lists the backups newest first, with size, rows and who made each', async () => {
    const first = await backup(token);
    await sleep(20);
    const second = await backup(token);
    const legacyKey = 'backups/2020-01-02T03-04-05.678Z.json';
    await env.BACKUPS.put(legacyKey, '{"version":1}');
    await env.BACKUPS.put('backups/notes.txt', 'not a backup');

    const { status, body } = await readJson<BackupList>(await api('settings/backups', { token }));
    expect(status).toBe(200);
    const keys = body.items.map((item) => item.key);
    expect(keys.indexOf(second.key)).toBe(0);
    expect(keys.indexOf(second.key)).toBeLessThan(keys.indexOf(first.key));
    expect(keys).not.toContain('backups/notes.txt');
    const times = body.items.map((item) => Date.parse(item.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const total = Object.values(second.rows).reduce((sum, n) => sum + n, 0);
    expect(body.items[0]).toEqual({
      key: second.key,
      createdAt: second.createdAt,
      bytes: second.bytes,
      rows: total,
      madeBy: { type: 'user', id: caller.id, name: `${caller.firstName} ${caller.surname}` },
    });
    // A backup in the older format records neither its rows nor its maker.
    expect(body.items.find((item) => item.key === legacyKey)).toEqual({
      key: legacyKey,
      createdAt: '2020-01-02T03:04:05.678Z',
      bytes: 13,
      rows: null,
      madeBy: null,
    });
    await env.BACKUPS.delete([legacyKey, 'backups/notes.txt']);
  });
});

describe('GET settings/backups/download', () => {
  it('streams the stored file as an attachment', async () => {
    const { key } = await backup(token);
    const res = await api(`settings/backups/download?key=${encodeURIComponent(key)}`, { token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/gzip');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${key.slice('backups/'.length)}"`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    // Compared by hash: toEqual on large byte arrays takes minutes.
    expect(await sha256Hex(new Uint8Array(await res.arrayBuffer()))).toBe(await sha256Hex(await storedBytes(key)));
  });

  it('answers 401 without a token', async () => {
    const { key } = await backup(token);
    await expectError(await api(`settings/backups/download?key=${encodeURIComponent(key)}`), 401);
  });

  it.each([
    ['no key', ''],
    ['an empty key', '?key='],
    ['a key outside backups/', `?key=${encodeURIComponent('secrets/2026-01-01T00-00-00.000Z.json')}`],
    ['a path that climbs out', `?key=${encodeURIComponent('backups/../2026-01-01T00-00-00.000Z.json')}`],
    ['a path below a backup', `?key=${encodeURIComponent('backups/2026-01-01T00-00-00.000Z.json/../../x')}`],
    ['a bare prefix', `?key=${encodeURIComponent('backups/')}`],
    ['an encoded slash', '?key=backups%252F2026-01-01T00-00-00.000Z.json'],
    ['a NUL byte', `?key=${encodeURIComponent('backups/2026-01-01T00-00-00.000Z.json\0')}`],
  ])('answers 400 for %s', async (_, query) => {
    await expectError(await api(`settings/backups/download${query}`, { token }), 400);
  });

  it('answers 404 for a well-formed key with no backup', async () => {
    const body = await expectError(await api(`settings/backups/download?key=${encodeURIComponent('backups/2001-01-01T00-00-00.000Z.ndjson.gz')}`, { token }), 404);
    expect(body.message).toBe('No backup has that key');
  });
});

describe('DATA_TABLES', () => {
  // A table added by a migration but missing here would silently be left out of every backup.
  it('names exactly the data tables of the migrated schema', async () => {
    const { results } = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all<{ name: string }>();
    const dataTables = results
      .map(({ name }) => name)
      .filter(
        (name) =>
          !name.startsWith('sqlite_') &&
          !name.startsWith('_cf_') &&
          name !== 'd1_migrations' &&
          !DERIVED_TABLE_PREFIXES.some((prefix) => name.startsWith(prefix)) &&
          !(SYSTEM_TABLES as readonly string[]).includes(name),
      );
    expect([...DATA_TABLES].sort()).toEqual(dataTables.sort());
  });
});
