import { applyD1Migrations, env } from 'cloudflare:test';
import { expect, it } from 'vitest';

// MIGRATION_DB starts empty in this file (storage is isolated per test file), so it can hold the
// schema as it was before 0010 and data written by the statement code of that time: issuing
// froze the lines on the statement, voiding handed them back stamped with the void's time and
// set the statement's total to 0.
const before = env.TEST_MIGRATIONS.filter((m) => m.name < '0010');
// Up to the migrations after 0010 that change what it made (0012 drops the backup lock's triggers).
const rest = env.TEST_MIGRATIONS.filter((m) => m.name >= '0010' && m.name < '0012');
const db = env.MIGRATION_DB;
const all = async <T>(sql: string) => (await db.prepare(sql).all<T>()).results;

const VOIDED_AT = '2026-03-05T10:00:00.000Z';

it('0010 copies the lines of issued and paid statements, rebuilds a void one from the lines its void stamped, and pays paid ones in full', async () => {
  await applyD1Migrations(db, before);
  await db.batch([
    db.prepare("INSERT INTO companies (id, name, address) VALUES (1, 'GIFS Group', '1 Main Road'), (2, 'Other Co', '')"),
    db.prepare(
      `INSERT INTO statements (id, company_id, period, sequence, status, issued_at, voided_at, void_reason, total_cents) VALUES
        (1, 1, '2026-01', 1, 'paid', '2026-02-01T08:00:00.000Z', NULL, NULL, 300),
        (2, 1, '2026-02', 1, 'issued', '2026-03-01T08:00:00.000Z', NULL, NULL, 500),
        (3, 1, '2026-03', 1, 'void', '2026-03-02T08:00:00.000Z', '${VOIDED_AT}', 'Wrong rate', 0),
        (4, 1, '2026-04', 1, 'void', '2026-04-02T08:00:00.000Z', '2026-04-05T10:00:00.000Z', 'Wrong month', 0),
        (5, 1, '2026-04', 2, 'open', NULL, NULL, NULL, 70)`,
    ),
    db.prepare(
      `INSERT INTO invoice_lines (id, source, company_id, period, description, quantity, unit_price_cents, amount_cents, reference, status, statement_id, updated_at) VALUES
        (1, 'gifs-sla', 1, '2026-01', 'SLA January', 1, 100, 100, 'R1', 'invoiced', 1, '2026-02-01T08:00:00.000Z'),
        (2, 'gifs-azure', 1, '2026-01', 'Azure January', 2, 100, 200, 'R2', 'invoiced', 1, '2026-02-01T08:00:00.000Z'),
        (3, 'gifs-sla', 1, '2026-02', 'SLA February', 5, 100, 500, '', 'invoiced', 2, '2026-03-01T08:00:00.000Z'),
        (4, 'gifs-sla', 1, '2026-03', 'SLA March', 3, 1000, 3000, 'M1', 'approved', NULL, '${VOIDED_AT}'),
        (5, 'gifs-azure', 1, '2026-03', 'Azure March', 1, 250, 250, 'M2', 'approved', NULL, '${VOIDED_AT}'),
        (6, 'gifs-azure', 1, '2026-03', 'Azure March, edited after the void', 2, 10, 20, '', 'approved', NULL, '2026-03-06T00:00:00.000Z'),
        (7, 'autofi', 1, '2026-03', 'Not GIFS', 1, 9, 9, '', 'approved', NULL, '${VOIDED_AT}'),
        (8, 'gifs-sla', 2, '2026-03', 'Other company', 1, 9, 9, '', 'approved', NULL, '${VOIDED_AT}'),
        (9, 'gifs-sla', 1, '2026-04', 'April, billed again', 1, 70, 70, '', 'approved', 5, '2026-04-06T00:00:00.000Z')`,
    ),
  ]);

  await applyD1Migrations(db, rest);

  expect(await all('SELECT statement_id, line_id, source, description, quantity, unit_price_cents, amount_cents, reference FROM statement_lines ORDER BY statement_id, line_id')).toEqual([
    { statement_id: 1, line_id: 1, source: 'gifs-sla', description: 'SLA January', quantity: 1, unit_price_cents: 100, amount_cents: 100, reference: 'R1' },
    { statement_id: 1, line_id: 2, source: 'gifs-azure', description: 'Azure January', quantity: 2, unit_price_cents: 100, amount_cents: 200, reference: 'R2' },
    { statement_id: 2, line_id: 3, source: 'gifs-sla', description: 'SLA February', quantity: 5, unit_price_cents: 100, amount_cents: 500, reference: '' },
    { statement_id: 3, line_id: 4, source: 'gifs-sla', description: 'SLA March', quantity: 3, unit_price_cents: 1000, amount_cents: 3000, reference: 'M1' },
    { statement_id: 3, line_id: 5, source: 'gifs-azure', description: 'Azure March', quantity: 1, unit_price_cents: 250, amount_cents: 250, reference: 'M2' },
  ]);
  // Billed statements total their copy: the rebuilt void one gets back what the stamped lines
  // billed; the void whose lines were all billed again keeps nothing to show (README).
  expect(await all('SELECT id, status, total_cents FROM statements ORDER BY id')).toEqual([
    { id: 1, status: 'paid', total_cents: 300 },
    { id: 2, status: 'issued', total_cents: 500 },
    { id: 3, status: 'void', total_cents: 3250 },
    { id: 4, status: 'void', total_cents: 0 },
    { id: 5, status: 'open', total_cents: 70 },
  ]);
  // A statement marked paid before payments existed was paid in full, on the day it was marked.
  expect(await all('SELECT statement_id, paid_on, amount_cents, method FROM statement_payments ORDER BY id')).toEqual([
    { statement_id: 1, paid_on: expect.stringMatching(/^\d{4}-\d\d-\d\d$/), amount_cents: 300, method: 'other' },
  ]);
  // The live lines are untouched.
  expect(await all('SELECT id, status, statement_id FROM invoice_lines WHERE id IN (4, 9) ORDER BY id')).toEqual([
    { id: 4, status: 'approved', statement_id: null },
    { id: 9, status: 'approved', statement_id: 5 },
  ]);
  expect(await all('PRAGMA foreign_key_check')).toEqual([]);
  // The copy and the payments are locked during a backup like every billing table.
  expect(await all("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN ('statement_lines', 'statement_payments') ORDER BY name")).toEqual(
    ['lines', 'payments'].flatMap((t) => ['delete', 'insert', 'update'].map((op) => ({ name: `backup_lock_statement_${t}_${op}` }))),
  );
});
