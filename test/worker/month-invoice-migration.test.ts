import { applyD1Migrations, env } from 'cloudflare:test';
import { expect, it } from 'vitest';

// MIGRATION_DB starts empty in this file (storage is isolated per test file), so it can hold the
// schema as it was before 0016: month invoices billed every company of the month at once, and
// the copy of a billed line named no company.
const before = env.TEST_MIGRATIONS.filter((m) => m.name < '0016');
const rest = env.TEST_MIGRATIONS.filter((m) => m.name >= '0016');
const db = env.MIGRATION_DB;
const all = async <T>(sql: string) => (await db.prepare(sql).all<T>()).results;

it('0016 names each copied line its company and lets a month hold one invoice per company', async () => {
  await applyD1Migrations(db, before);
  await db.batch([
    db.prepare("INSERT INTO companies (id, name, address) VALUES (1, 'Acme', '1 Acme Road'), (2, 'Bolt', '2 Bolt Lane')"),
    db.prepare(
      `INSERT INTO statements (id, ledger, company_id, period, sequence, status, issued_at, total_cents) VALUES
        (1, 'gifs', 1, '2026-01', 1, 'issued', '2026-02-01T08:00:00.000Z', 300),
        (2, 'autofi', NULL, '2026-01', 1, 'issued', '2026-02-01T08:00:00.000Z', 500)`,
    ),
    db.prepare(
      `INSERT INTO invoice_lines (id, source, company_id, period, description, quantity, unit_price_cents, amount_cents, status, statement_id) VALUES
        (1, 'gifs-sla', 1, '2026-01', 'SLA', 1, 300, 300, 'invoiced', 1),
        (2, 'autofi', 1, '2026-01', 'Acme trackers', 1, 200, 200, 'invoiced', 2),
        (3, 'autofi', 2, '2026-01', 'Bolt trackers', 1, 300, 300, 'invoiced', 2)`,
    ),
    db.prepare(
      `INSERT INTO statement_lines (statement_id, line_id, source, description, quantity, unit_price_cents, amount_cents) VALUES
        (1, 1, 'gifs-sla', 'SLA', 1, 300, 300), (2, 2, 'autofi', 'Acme trackers', 1, 200, 200), (2, 3, 'autofi', 'Bolt trackers', 1, 300, 300)`,
    ),
  ]);

  await applyD1Migrations(db, rest);

  expect(await all('SELECT statement_id, line_id, company_id FROM statement_lines ORDER BY statement_id, line_id')).toEqual([
    { statement_id: 1, line_id: 1, company_id: 1 },
    { statement_id: 2, line_id: 2, company_id: 1 },
    { statement_id: 2, line_id: 3, company_id: 2 },
  ]);
  // One invoice that is not void per ledger, month and company; another company's is welcome.
  const invoice = (company: number, sequence: number, status: string) =>
    db
      .prepare(
        "INSERT INTO statements (ledger, company_id, period, sequence, status, issued_at, voided_at, void_reason) VALUES ('autofi', ?1, '2026-02', ?2, ?3, '2026-03-01T08:00:00.000Z', ?4, ?5)",
      )
      .bind(company, sequence, status, status === 'void' ? '2026-03-02T08:00:00.000Z' : null, status === 'void' ? 'Wrong rate' : null)
      .run();
  await invoice(1, 1, 'issued');
  await invoice(2, 2, 'issued');
  await expect(invoice(1, 3, 'issued')).rejects.toThrow(/UNIQUE/);
  await invoice(1, 3, 'void');
  expect(await all("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'statements_ledger_month%'")).toEqual([{ name: 'statements_ledger_month_company_closed' }]);
});
