import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { daysFrom, utcDay } from '../../src/shared/dates';
import type { AgingSummary, AuditEntry, Page, Statement, StatementDetail } from '../../src/shared/types';
import { api, expectConflict, expectError, signedIn } from './support';

let admin: string;
let billing: string;
const json = async <T>(res: Response) => (await res.json()) as T;

let nextPeriod = 0;
/** An issued statement of one approved SLA line of `cents`, in a month nothing else bills. */
const issuedStatement = async (cents: number) => {
  nextPeriod += 1;
  const period = `21${String(10 + Math.floor(nextPeriod / 12)).padStart(2, '0')}-${String((nextPeriod % 12) + 1).padStart(2, '0')}`;
  expect((await api('invoices/gifs-sla/lines', { method: 'POST', token: admin, json: { period, description: 'SLA', quantity: 1, unitPriceCents: cents, status: 'approved' } })).status).toBe(201);
  const opened = await json<StatementDetail>(await api('invoices/gifs/statements', { method: 'POST', token: admin, json: { period } }));
  const issued = await api(`invoices/gifs/statements/${opened.id}`, { method: 'PATCH', token: admin, json: { status: 'issued', from: 'open' } });
  expect(issued.status).toBe(200);
  return json<StatementDetail>(issued);
};

const pay = (id: number, body: Record<string, unknown>, token = billing) =>
  api(`invoices/gifs/statements/${id}/payments`, { method: 'POST', token, json: { paidOn: '2026-11-02', method: 'bank', ...body } });
const reverse = (id: number, paymentId: number, token = admin) => api(`invoices/gifs/statements/${id}/payments/${paymentId}`, { method: 'DELETE', token });
const getStatement = async (id: number) => json<StatementDetail>(await api(`invoices/gifs/statements/${id}`, { token: billing }));
const historyOf = async (id: number) => (await json<Page<AuditEntry>>(await api(`audit?entity=statement&entityId=${id}&pageSize=100`, { token: billing }))).items;

/**
 * The money invariants, read straight from D1 for every statement: payments never exceed the
 * total; a paid statement's payments equal its total, an issued one's stay below it; open and
 * void statements hold no payments; every payment has its entry in the statement's history.
 */
const expectMoneyInvariants = async () => {
  const broken = await env.DB.prepare(
    `SELECT s.id, s.status, s.total_cents, coalesce(sum(p.amount_cents), 0) AS paid FROM statements s LEFT JOIN statement_payments p ON p.statement_id = s.id
     GROUP BY s.id HAVING paid > s.total_cents OR (s.status = 'paid' AND paid <> s.total_cents) OR (s.status = 'issued' AND paid >= s.total_cents AND s.total_cents > 0)
       OR (s.status IN ('open', 'void') AND paid <> 0)`,
  ).all();
  expect(broken.results, 'payments fit the statement and its status').toEqual([]);
  const unaudited = await env.DB.prepare(
    `SELECT p.id FROM statement_payments p WHERE NOT EXISTS (SELECT 1 FROM audit_log a WHERE a.entity = 'statement' AND a.entity_id = p.statement_id
       AND a.action = 'create' AND json_extract(a.changes, '$.paymentId[1]') = p.id)`,
  ).all();
  expect(unaudited.results, 'every payment is in its statement history').toEqual([]);
  const drift = await env.DB.prepare(
    `SELECT s.id FROM statements s WHERE s.status <> 'open' AND s.total_cents <> (SELECT coalesce(sum(amount_cents), 0) FROM statement_lines WHERE statement_id = s.id)`,
  ).all();
  expect(drift.results, 'a billed statement totals its copy').toEqual([]);
};

beforeAll(async () => {
  ({ token: admin } = await signedIn('admin'));
  ({ token: billing } = await signedIn('billing'));
});

describe('payments', () => {
  it('a partial payment leaves the statement issued with a balance; the rest makes it paid; each is in its history', async () => {
    const statement = await issuedStatement(10_000);
    expect(statement).toMatchObject({ balanceCents: 10_000, paidCents: 0, payments: [] });

    const partial = await pay(statement.id, { amountCents: 2_500, method: 'card', reference: 'AUTH-1' });
    expect(partial.status).toBe(201);
    const afterPartial = await json<StatementDetail>(partial);
    expect(afterPartial).toMatchObject({ status: 'issued', paidCents: 2_500, balanceCents: 7_500 });
    expect(afterPartial.payments).toMatchObject([{ paidOn: '2026-11-02', amountCents: 2_500, method: 'card', reference: 'AUTH-1' }]);

    const rest = await json<StatementDetail>(await pay(statement.id, { amountCents: 7_500, paidOn: '2026-11-20' }));
    expect(rest).toMatchObject({ status: 'paid', paidCents: 10_000, balanceCents: 0, version: statement.version + 1 });

    const history = await historyOf(statement.id);
    expect(history.filter((e) => e.action === 'create' && e.changes.paymentId).map((e) => e.changes.amountCents)).toEqual([
      [null, 7_500],
      [null, 2_500],
    ]);
    expect(history.find((e) => e.action === 'update' && e.changes.status)?.changes.status).toEqual(['issued', 'paid']);
    await expectMoneyInvariants();
  });

  it('refuses a payment above the balance, and any payment on an open, paid or void statement, changing nothing', async () => {
    const statement = await issuedStatement(1_000);
    expect((await expectConflict(await pay(statement.id, { amountCents: 1_001 }))).detail).toBe('The payment is more than the balance of $10.00; record at most the balance');
    expect((await pay(statement.id, { amountCents: 1_000 })).status).toBe(201);
    expect((await expectConflict(await pay(statement.id, { amountCents: 1 }))).detail).toMatch(/this one is paid/);
    expect((await getStatement(statement.id)).payments).toHaveLength(1);
    expect((await pay(999_999, { amountCents: 1 })).status).toBe(404);
    await expectMoneyInvariants();
  });

  it('bad inputs get 400 with field errors', async () => {
    const statement = await issuedStatement(1_000);
    const cases: [Record<string, unknown>, string][] = [
      [{ amountCents: 0 }, 'amountCents'],
      [{ amountCents: -5 }, 'amountCents'],
      [{ amountCents: 1.5 }, 'amountCents'],
      [{ amountCents: 'ten' }, 'amountCents'],
      [{ amountCents: 1, method: 'cheque' }, 'method'],
      [{ amountCents: 1, paidOn: '2026-02-30' }, 'paidOn'],
      [{ amountCents: 1, paidOn: 'yesterday' }, 'paidOn'],
      [{ amountCents: 1, reference: 'x'.repeat(101) }, 'reference'],
    ];
    for (const [body, field] of cases) expect((await expectError(await pay(statement.id, body), 400)).errors?.[field], JSON.stringify(body)).toBeDefined();
    expect((await expectError(await api(`invoices/gifs/statements/${statement.id}/payments`, { method: 'POST', token: billing, json: {} }), 400)).errors).toMatchObject({
      paidOn: ['Required'],
      amountCents: ['Required'],
      method: ['Required'],
    });
    expect((await expectError(await pay(0, { amountCents: 1 }), 400)).errors?.id).toBeDefined();
    expect((await getStatement(statement.id)).payments).toEqual([]);
  });

  it('two payments racing for the last cent: exactly one lands, every time', async () => {
    for (let round = 0; round < 8; round++) {
      const statement = await issuedStatement(100);
      expect((await pay(statement.id, { amountCents: 99 })).status).toBe(201);
      const answers = await Promise.all([pay(statement.id, { amountCents: 1 }), pay(statement.id, { amountCents: 1 }, admin)]);
      expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
      const stored = await env.DB.prepare('SELECT sum(amount_cents) AS paid, count(*) AS n FROM statement_payments WHERE statement_id = ?1').bind(statement.id).first();
      expect(stored).toEqual({ paid: 100, n: 2 });
    }
    // And two that each fit alone but not together.
    const statement = await issuedStatement(100);
    const answers = await Promise.all([pay(statement.id, { amountCents: 60 }), pay(statement.id, { amountCents: 60 }, admin)]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await getStatement(statement.id)).toMatchObject({ status: 'issued', paidCents: 60, balanceCents: 40 });
    await expectMoneyInvariants();
  });

  it('a void racing a payment: one of them wins and no void statement holds money', async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < 8; round++) {
      const statement = await issuedStatement(500);
      const voiding = api(`invoices/gifs/statements/${statement.id}`, { method: 'PATCH', token: admin, json: { status: 'void', from: 'issued', reason: 'Wrong rate' } });
      const [voided, paid] = await Promise.all([voiding, pay(statement.id, { amountCents: 200 })]);
      expect([voided.status, paid.status].sort()).toEqual([200, 409].sort());
      const after = await getStatement(statement.id);
      outcomes.add(after.status);
      if (after.status === 'void') expect(after.payments).toEqual([]);
      else expect(after).toMatchObject({ status: 'issued', paidCents: 200 });
    }
    expect([...outcomes].every((s) => s === 'void' || s === 'issued')).toBe(true);
    // A statement with a payment is voided only once the payment is reversed.
    const statement = await issuedStatement(500);
    const { payments } = await json<StatementDetail>(await pay(statement.id, { amountCents: 100 }));
    const refused = await api(`invoices/gifs/statements/${statement.id}`, { method: 'PATCH', token: admin, json: { status: 'void', reason: 'Wrong rate' } });
    expect((await expectConflict(refused)).detail).toMatch(/reverse them before voiding/);
    expect((await reverse(statement.id, payments[0]!.id)).status).toBe(200);
    expect((await api(`invoices/gifs/statements/${statement.id}`, { method: 'PATCH', token: admin, json: { status: 'void', reason: 'Wrong rate' } })).status).toBe(200);
    await expectMoneyInvariants();
  });
});

describe('reversing a payment', () => {
  it('is for admins; it takes a paid statement back to issued and leaves its entry in the history', async () => {
    const statement = await issuedStatement(800);
    const paid = await json<StatementDetail>(await pay(statement.id, { amountCents: 800 }));
    expect(paid.status).toBe('paid');
    const [payment] = paid.payments;
    expect((await expectError(await reverse(statement.id, payment!.id, billing), 403)).message).toBe('You need the admin role to reverse payments');
    expect((await getStatement(statement.id)).status).toBe('paid');

    const reversed = await reverse(statement.id, payment!.id);
    expect(reversed.status).toBe(200);
    expect(await json<StatementDetail>(reversed)).toMatchObject({ status: 'issued', paidCents: 0, balanceCents: 800, payments: [] });
    const history = await historyOf(statement.id);
    expect(history[0]).toMatchObject({ action: 'delete', changes: { amountCents: [800, null], paymentId: [payment!.id, null] } });
    expect(history[1]?.changes.status).toEqual(['paid', 'issued']);

    expect((await reverse(statement.id, payment!.id)).status).toBe(404);
    const other = await issuedStatement(300);
    const { payments } = await json<StatementDetail>(await pay(other.id, { amountCents: 100 }));
    expect((await reverse(statement.id, payments[0]!.id)).status).toBe(404);
    // Refused, so no history says it was deleted: not the payment's statement, not the one named.
    expect((await historyOf(other.id)).filter((entry) => entry.action === 'delete')).toEqual([]);
    expect((await historyOf(statement.id)).filter((entry) => entry.action === 'delete')).toHaveLength(1);
    expect((await reverse(statement.id, 0)).status).toBe(400);
    await expectMoneyInvariants();
  });
});

describe('"Mark paid"', () => {
  it('records one payment of the balance dated today, so a paid statement always has its payments', async () => {
    const statement = await issuedStatement(4_200);
    await pay(statement.id, { amountCents: 200 });
    const res = await api(`invoices/gifs/statements/${statement.id}`, { method: 'PATCH', token: billing, json: { status: 'paid', from: 'issued' } });
    expect(res.status).toBe(200);
    const paid = await json<StatementDetail>(res);
    expect(paid).toMatchObject({ status: 'paid', paidCents: 4_200, balanceCents: 0 });
    expect(paid.payments.map((p) => [p.amountCents, p.method])).toEqual([
      [200, 'bank'],
      [4_000, 'other'],
    ]);
    expect(paid.payments[1]?.paidOn).toBe(utcDay());
    await expectMoneyInvariants();
  });
});

describe('due dates, overdue and aging', () => {
  it('lists balance and due date; the overdue filter and the aging buckets agree with the statements', async () => {
    const late = await issuedStatement(1_500);
    // Issued 75 days ago with 30 days' terms: 45 days past due.
    await env.DB.prepare(`UPDATE statements SET issued_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-75 days') WHERE id = ?1`).bind(late.id).run();
    await pay(late.id, { amountCents: 500 });
    const current = await issuedStatement(700);

    const overdue = await json<Page<Statement>>(await api('invoices/gifs/statements?overdue=true&pageSize=200', { token: billing }));
    const mine = overdue.items.find((s) => s.id === late.id);
    expect(mine).toMatchObject({ overdue: true, balanceCents: 1_000, dueOn: expect.stringMatching(/^\d{4}-\d\d-\d\d$/) });
    expect(daysFrom(mine!.dueOn!, utcDay())).toBe(45);
    expect(overdue.items.every((s) => s.overdue && s.status === 'issued')).toBe(true);
    expect(overdue.items.some((s) => s.id === current.id)).toBe(false);
    expect((await expectError(await api('invoices/gifs/statements?overdue=maybe', { token: billing }), 400)).errors?.overdue).toBeDefined();

    // Every issued statement with a balance, bucketed here from the list, equals the summary.
    const all = await json<Page<Statement>>(await api('invoices/gifs/statements?pageSize=200', { token: billing }));
    expect(all.total).toBeLessThanOrEqual(200);
    const expected: AgingSummary['buckets'] = {
      current: { statements: 0, balanceCents: 0 },
      days1to30: { statements: 0, balanceCents: 0 },
      days31to60: { statements: 0, balanceCents: 0 },
      days61to90: { statements: 0, balanceCents: 0 },
      days90plus: { statements: 0, balanceCents: 0 },
    };
    for (const s of all.items.filter((s) => s.status === 'issued' && s.balanceCents > 0)) {
      const days = daysFrom(s.dueOn!, utcDay());
      const bucket = days <= 0 ? 'current' : days <= 30 ? 'days1to30' : days <= 60 ? 'days31to60' : days <= 90 ? 'days61to90' : 'days90plus';
      expected[bucket].statements += 1;
      expected[bucket].balanceCents += s.balanceCents;
    }
    const aging = await json<AgingSummary>(await api('invoices/gifs/statements/aging', { token: billing }));
    expect(aging.buckets).toEqual(expected);
    expect(aging.buckets.days31to60.balanceCents).toBeGreaterThanOrEqual(1_000);
    expect(aging.buckets.current.balanceCents).toBeGreaterThanOrEqual(700);
    expect(aging.asOf).toBe(utcDay());
  });

  it("with ledger=gifs sums only GIFS statements; without, every ledger's issued documents", async () => {
    const gifs = await issuedStatement(2_300);
    // The issued invoice of a closed Autofi month with a balance: every ledger's aging counts it, GIFS's does not.
    await env.DB.prepare(
      `INSERT INTO statements (ledger, period, sequence, status, issued_at, total_cents) VALUES ('autofi', '2198-01', 1, 'issued', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 4_100)`,
    ).run();
    const [every, gifsOnly] = [
      await json<AgingSummary>(await api('invoices/gifs/statements/aging', { token: billing })),
      await json<AgingSummary>(await api('invoices/gifs/statements/aging?ledger=gifs', { token: billing })),
    ];
    const all = await json<Page<Statement>>(await api('invoices/gifs/statements?pageSize=200', { token: billing }));
    const owed = all.items.filter((s) => s.status === 'issued' && s.balanceCents > 0);
    expect(owed.some((s) => s.id === gifs.id)).toBe(true);
    expect(gifsOnly.totals).toEqual({ statements: owed.length, balanceCents: owed.reduce((sum, s) => sum + s.balanceCents, 0) });
    expect(every.totals).toEqual({ statements: gifsOnly.totals.statements + 1, balanceCents: gifsOnly.totals.balanceCents + 4_100 });
    const autofi = await json<AgingSummary>(await api('invoices/gifs/statements/aging?ledger=autofi', { token: billing }));
    expect(autofi.totals).toEqual({ statements: 1, balanceCents: 4_100 });
    expect((await expectError(await api('invoices/gifs/statements/aging?ledger=nope', { token: billing }), 400)).errors?.ledger).toBeDefined();
  });

  it('filters by the state a statement shows: issued with nothing paid, partially paid, paid; the other values keep working', async () => {
    const untouched = await issuedStatement(900);
    const partly = await issuedStatement(900);
    const whole = await issuedStatement(900);
    expect((await pay(partly.id, { amountCents: 1 })).status).toBe(201);
    expect((await pay(whole.id, { amountCents: 900 })).status).toBe(201);
    const ids = async (query: string) => (await json<Page<Statement>>(await api(`invoices/gifs/statements?pageSize=200&${query}`, { token: billing }))).items.map((s) => s.id);
    const [issued, partial, paid, all] = [await ids('state=issued'), await ids('state=partial'), await ids('state=paid'), await ids('')];
    expect([issued.includes(untouched.id), issued.includes(partly.id), issued.includes(whole.id)]).toEqual([true, false, false]);
    expect([partial.includes(untouched.id), partial.includes(partly.id), partial.includes(whole.id)]).toEqual([false, true, false]);
    expect([paid.includes(untouched.id), paid.includes(partly.id), paid.includes(whole.id)]).toEqual([false, false, true]);
    expect(all).toEqual(expect.arrayContaining([untouched.id, partly.id, whole.id]));
    expect(await ids('state=partial&overdue=true')).not.toContain(partly.id);
    for (const state of ['open', 'void'] as const) {
      const page = await json<Page<Statement>>(await api(`invoices/gifs/statements?pageSize=200&state=${state}`, { token: billing }));
      expect(page.items.every((s) => s.status === state)).toBe(true);
    }
  });
});
