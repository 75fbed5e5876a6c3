import { applyD1Migrations, env } from 'cloudflare:test';
import { expect, it } from 'vitest';

// RESTORE_DB starts empty in this file (storage is isolated per test file), so it can hold the
// schema as it was before 0005 and data written by the old statement code.
const before = env.TEST_MIGRATIONS.filter((m) => m.name < '0005');
const rest = env.TEST_MIGRATIONS.filter((m) => m.name >= '0005');
const db = env.RESTORE_DB;
const all = async <T>(sql: string) => (await db.prepare(sql).all<T>()).results;

it('0005 rebuilds statements on data from the old statement code: ids, lines and totals kept, line statuses made to follow them', async () => {
  await applyD1Migrations(db, before);
  await db.batch([
    db.prepare("INSERT INTO companies (id, name, address) VALUES (1, 'GIFS Group', '1 Main Road')"),
    db.prepare("INSERT INTO statements (id, company_id, period, status, issued_at, total_cents) VALUES (7, 1, '2026-01', 'paid', '2026-02-01T08:00:00.000Z', 300), (8, 1, '2026-02', 'issued', NULL, 500), (9, 1, '2026-03', 'open', NULL, 999)"),
    db.prepare(
      `INSERT INTO invoice_lines (id, source, company_id, period, amount_cents, status, statement_id) VALUES
        (1, 'gifs-sla', 1, '2026-01', 100, 'invoiced', 7), (2, 'gifs-azure', 1, '2026-01', 200, 'invoiced', 7),
        (3, 'gifs-sla', 1, '2026-02', 500, 'approved', 8),
        (4, 'gifs-sla', 1, '2026-03', 40, 'invoiced', 9), (5, 'gifs-azure', 1, '2026-03', 2, 'invoiced', 9),
        (6, 'autofi', 1, '2026-03', 77, 'invoiced', NULL), (10, 'autofi', 1, '2026-03', 5, 'draft', NULL)`,
    ),
  ]);

  await applyD1Migrations(db, rest);

  expect(await all('SELECT id, period, sequence, status, issued_at IS NOT NULL AS issued, total_cents FROM statements ORDER BY id')).toEqual([
    { id: 7, period: '2026-01', sequence: 1, status: 'paid', issued: 1, total_cents: 300 },
    { id: 8, period: '2026-02', sequence: 1, status: 'issued', issued: 1, total_cents: 500 },
    { id: 9, period: '2026-03', sequence: 1, status: 'open', issued: 0, total_cents: 42 },
  ]);
  expect(await all('SELECT id, status, statement_id FROM invoice_lines ORDER BY id')).toEqual([
    { id: 1, status: 'invoiced', statement_id: 7 },
    { id: 2, status: 'invoiced', statement_id: 7 },
    { id: 3, status: 'invoiced', statement_id: 8 },
    { id: 4, status: 'approved', statement_id: 9 },
    { id: 5, status: 'approved', statement_id: 9 },
    { id: 6, status: 'approved', statement_id: null },
    { id: 10, status: 'draft', statement_id: null },
  ]);
  expect(await all('PRAGMA foreign_key_check')).toEqual([]);
  expect(await all("SELECT name FROM sqlite_master WHERE name IN ('statements_period', 'billing_line_statements', 'statements_billing')")).toEqual([]);

  // A month can now hold a supplementary statement, and a void one needs its reason and time.
  await db.prepare("INSERT INTO statements (company_id, period, sequence) VALUES (1, '2026-03', 2)").run();
  await expect(db.prepare("INSERT INTO statements (company_id, period, sequence) VALUES (1, '2026-03', 2)").run()).rejects.toThrow(/UNIQUE/);
  await expect(db.prepare("UPDATE statements SET status = 'void' WHERE id = 8").run()).rejects.toThrow(/CHECK/);
  await db.prepare("UPDATE statements SET status = 'void', void_reason = 'Wrong rate', voided_at = '2026-04-01T00:00:00.000Z' WHERE id = 8").run();
  await expect(db.prepare("UPDATE statements SET status = 'issued', issued_at = NULL WHERE id = 9").run()).rejects.toThrow(/CHECK/);
  // New statements keep counting after the highest id the old table had.
  expect((await all<{ id: number }>("SELECT id FROM statements WHERE sequence = 2"))[0]?.id).toBe(10);
});
