import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../scripts/demo/random';
import { billDemoStatements } from '../../scripts/demo/statements';
import type { AgingSummary, Page, Statement } from '../../src/shared/types';
import { api, readJson, signedIn } from './support';

// The demo's statements (scripts/demo/statements.ts) are dated as a ledger a year old would be, so
// aging and "Overdue only" have something to show on a fresh `npm start`.

/** The ten months the demo bills: from two months ago back, newest first. */
const billedMonths = (now = new Date()) =>
  Array.from({ length: 10 }, (_, i) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 2 - i, 1)).toISOString().slice(0, 7));

const nextMonth = (period: string) => {
  const [year = 0, month = 0] = period.split('-').map(Number);
  return new Date(Date.UTC(year, month, 1)).toISOString().slice(0, 7);
};

describe('demo statements', () => {
  it('are issued in the month after each period, paid weeks later, and some are overdue', async () => {
    const periods = billedMonths();
    await env.DB.batch(
      periods.map((period, i) =>
        env.DB.prepare(
          `INSERT INTO invoice_lines (source, period, description, quantity, unit_price_cents, amount_cents, reference, status)
           VALUES ('gifs-sla', ?1, 'Managed service', 1, ?2, ?2, 'DEMO-' || ?1, 'approved')`,
        ).bind(period, 10_000 * (i + 1)),
      ),
    );
    const started = Date.now();
    expect(await billDemoStatements(env.DB, periods, seededRandom(20261122))).toBe(11);

    const { results: statements } = await env.DB.prepare(
      `SELECT id, period, sequence, status, created_at, issued_at, voided_at FROM statements WHERE period IN (SELECT value FROM json_each(?1)) ORDER BY period DESC, sequence`,
    )
      .bind(JSON.stringify(periods))
      .all<{ id: number; period: string; sequence: number; status: string; created_at: string; issued_at: string; voided_at: string | null }>();
    expect(statements.map((s) => [s.period, s.sequence, s.status])).toEqual([
      [periods[0], 1, 'void'],
      [periods[0], 2, 'issued'],
      [periods[1], 1, 'issued'],
      ...periods.slice(2).map((period) => [period, 1, 'paid']),
    ]);
    // Not all issued today: each went out in the month after its period, so the dates spread over the year.
    for (const s of statements) {
      expect(s.issued_at.slice(0, 7), `${s.period} issued ${s.issued_at}`).toBe(nextMonth(s.period));
      expect(Date.parse(s.issued_at)).toBeLessThan(started);
      expect(Date.parse(s.created_at)).toBeLessThanOrEqual(Date.parse(s.issued_at));
    }
    expect(new Set(statements.map((s) => s.issued_at.slice(0, 10))).size).toBe(11);
    const [voided, reissued] = statements;
    expect(Date.parse(voided?.voided_at ?? '')).toBeGreaterThan(Date.parse(voided?.issued_at ?? ''));
    expect(Date.parse(reissued?.issued_at ?? '')).toBeGreaterThan(Date.parse(voided?.voided_at ?? ''));

    // Paid 10 to 35 days after issue, before today; the history reads in the same order.
    const { results: payments } = await env.DB.prepare(
      `SELECT s.issued_at, p.paid_on FROM statement_payments p JOIN statements s ON s.id = p.statement_id WHERE s.period IN (SELECT value FROM json_each(?1))`,
    )
      .bind(JSON.stringify(periods))
      .all<{ issued_at: string; paid_on: string }>();
    expect(payments).toHaveLength(8);
    for (const p of payments) {
      const days = (Date.parse(p.paid_on) - Date.parse(p.issued_at.slice(0, 10))) / 86_400_000;
      expect(days).toBeGreaterThanOrEqual(10);
      expect(days).toBeLessThanOrEqual(35);
    }
    for (const s of statements) {
      const { results: history } = await env.DB.prepare("SELECT at FROM audit_log WHERE entity = 'statement' AND entity_id = ?1 ORDER BY id").bind(s.id).all<{ at: string }>();
      expect(history.length).toBeGreaterThan(1);
      expect(history.map((h) => h.at)).toEqual([...history.map((h) => h.at)].sort());
      expect(history[0]?.at).toBe(s.created_at);
      expect(Date.parse(history[history.length - 1]?.at ?? '')).toBeLessThan(started);
    }

    // So the statements page has something to age: the month three back is past due, not current.
    const { token } = await signedIn('billing');
    const overdue = (await readJson<Page<Statement>>(await api('invoices/gifs/statements?overdue=true&pageSize=200', { token }))).body;
    expect(overdue.items.map((s) => s.period)).toContain(periods[1]);
    const aging = (await readJson<AgingSummary>(await api('invoices/gifs/statements/aging', { token }))).body;
    expect(aging.totals.statements).toBe(2);
    expect(aging.buckets.current.statements).toBeLessThan(2);
  });
});
