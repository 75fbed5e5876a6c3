import { applyD1Migrations, env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, signedIn } from './support';

// Security review (docs/decisions.md#the-security-review), finding 8: ids are never reused, and migration 0003 keeps every existing row and id
// while it rebuilds the tables with AUTOINCREMENT.

const db = () => env.MIGRATION_DB;
const before = env.TEST_MIGRATIONS.filter((migration) => /^000[12]_/.test(migration.name));
const TABLES = ['users', 'companies', 'ticket_categories', 'tickets', 'ticket_comments', 'time_entries', 'statements', 'invoice_lines'];

const schemaOf = async (database: D1Database) =>
  (
    await database
      .prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY name")
      .all<{ type: string; name: string; tbl_name: string; sql: string | null }>()
  ).results;

const rowsOf = async (table: string) => (await db().prepare(`SELECT * FROM ${table} ORDER BY id`).all()).results;

let snapshot: Record<string, unknown[]>;
let indexesBefore: string[];

beforeAll(async () => {
  await applyD1Migrations(db(), before);
  // Ids with gaps, as deletes leave them, and rows in every table that point at each other.
  await db().batch([
    db().prepare("INSERT INTO users (id, first_name, surname, email, password_hash) VALUES (3, 'Ada', 'Lovelace', 'ada@example.com', 'x'), (7, 'Alan', 'Turing', 'alan@example.com', 'y')"),
    db().prepare("INSERT INTO companies (id, name) VALUES (2, 'GIFS Group'), (9, 'Acme  Ltd'), (10, 'acme ltd ')"),
    db().prepare("INSERT INTO ticket_categories (id, name) VALUES (4, 'Hardware')"),
    db().prepare("INSERT INTO tickets (id, title, company_id, category_id, assignee_id, reporter_id) VALUES (11, 'Printer', 2, 4, 3, 7), (15, 'Screen', 9, NULL, NULL, 3)"),
    db().prepare("INSERT INTO ticket_comments (id, ticket_id, user_id, body) VALUES (5, 11, 3, 'On it')"),
    db().prepare("INSERT INTO time_entries (id, ticket_id, user_id, work_date, minutes) VALUES (8, 11, 3, '2026-01-02', 30)"),
    db().prepare("INSERT INTO statements (id, company_id, period) VALUES (6, 2, '2026-01')"),
    db().prepare("INSERT INTO invoice_lines (id, source, company_id, period, statement_id) VALUES (12, 'gifs-sla', 2, '2026-01', 6)"),
  ]);
  snapshot = Object.fromEntries(await Promise.all(TABLES.map(async (table) => [table, await rowsOf(table)] as const)));
  indexesBefore = (await schemaOf(db())).filter((entry) => entry.type === 'index').map((entry) => entry.name);
  // Only through 0003: later migrations reshape tables for their own reasons and test that themselves.
  await applyD1Migrations(db(), env.TEST_MIGRATIONS.filter((migration) => /^000[123]_/.test(migration.name)));
});

describe('migration 0003 over existing data', () => {
  it('keeps every row, id and value', async () => {
    for (const table of TABLES) {
      const rows = (await rowsOf(table)).map((row) => {
        const { name_key: _key, ...rest } = row as Record<string, unknown>;
        return rest;
      });
      expect({ table, rows }).toEqual({ table, rows: snapshot[table] });
    }
  });

  it('keeps every index of 0001 and 0002, and the foreign keys hold', async () => {
    const after = (await schemaOf(db())).filter((entry) => entry.type === 'index').map((entry) => entry.name);
    expect(after).toEqual(expect.arrayContaining(indexesBefore));
    expect((await db().prepare('PRAGMA foreign_key_check').all()).results).toEqual([]);
    // The renames rewrote the new tables' references to the final names.
    expect((await schemaOf(db())).filter((entry) => entry.sql?.includes('_new')).map((entry) => entry.name)).toEqual([]);
  });

  it('makes every table AUTOINCREMENT, continuing after the highest id', async () => {
    for (const table of TABLES) {
      const sql = (await schemaOf(db())).find((entry) => entry.type === 'table' && entry.name === table)?.sql ?? '';
      expect({ table, autoincrement: /id INTEGER PRIMARY KEY AUTOINCREMENT/.test(sql) }).toEqual({ table, autoincrement: true });
    }
    const next = await db().prepare("INSERT INTO users (first_name, surname, email, password_hash) VALUES ('Grace', 'Hopper', 'grace@example.com', 'z') RETURNING id").first<number>('id');
    expect(next).toBe(8);
  });

  it('gives old names a key, and look-alike old names keys of their own instead of failing', async () => {
    const keys = (await db().prepare('SELECT id, name_key FROM companies ORDER BY id').all()).results;
    expect(keys).toEqual([
      { id: 2, name_key: 'gifs group' },
      { id: 9, name_key: 'acme ltd' },
      { id: 10, name_key: 'acme ltd\u001f10' },
    ]);
  });

  it('still refuses what 0001 refused: a case-insensitive duplicate email, an unknown status', async () => {
    await expect(db().prepare("INSERT INTO users (first_name, surname, email, password_hash) VALUES ('A', 'B', 'ADA@example.com', 'x')").run()).rejects.toThrow(/UNIQUE/);
    await expect(db().prepare("INSERT INTO tickets (title, status) VALUES ('x', 'lost')").run()).rejects.toThrow(/CHECK/);
    await expect(db().prepare("INSERT INTO tickets (title, company_id) VALUES ('x', 999)").run()).rejects.toThrow(/FOREIGN KEY/);
  });
});

describe('ids are never reused after a delete', () => {
  it.each([
    ['companies', { name: 'Reuse Check Co' }],
    ['ticket-categories', { name: 'Reuse Check Category' }],
  ])('%s: a new record after deleting the newest gets a new id', async (path, body) => {
    const { token } = await signedIn();
    const created = async (suffix: string) => {
      const res = await api(path, { method: 'POST', token, json: { ...body, name: `${body.name} ${suffix}` } });
      expect(res.status).toBe(201);
      return ((await res.json()) as { id: number }).id;
    };
    const first = await created(crypto.randomUUID().slice(0, 8));
    expect((await api(`${path}/${first}`, { method: 'DELETE', token })).status).toBe(204);
    const second = await created(crypto.randomUUID().slice(0, 8));
    expect(second).toBeGreaterThan(first);
  });

  it('users: a deleted user’s id is not given to the next one, so its old tokens stay dead', async () => {
    const { user, token } = await signedIn();
    // The audit log keeps who did what; a user can only be deleted once their entries are gone.
    await env.DB.batch([
      env.DB.prepare('DELETE FROM audit_log WHERE actor_id = ?1').bind(user.id),
      env.DB.prepare('DELETE FROM users WHERE id = ?1').bind(user.id),
    ]);
    const { user: next } = await signedIn();
    expect(next.id).toBeGreaterThan(user.id);
    expect((await api('users', { token })).status).toBe(401);
  });
});
