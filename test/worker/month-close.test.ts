import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgingSummary, AuditEntry, Company, InvoiceLine, Page, Statement, StatementDetail } from '../../src/shared/types';
import { connect, isType } from './live-socket';
import { api, expectConflict, expectError, signedIn } from './support';

let token: string;
let staff: string;
const json = async <T>(res: Response) => (await res.json()) as T;

let nextPeriod = 0;
const freshPeriod = () => {
  nextPeriod += 1;
  return `22${String(10 + Math.floor(nextPeriod / 12)).padStart(2, '0')}-${String((nextPeriod % 12) + 1).padStart(2, '0')}`;
};
const addLine = async (source: string, period: string, body: Record<string, unknown> = {}) => {
  const res = await api(`invoices/${source}/lines`, { method: 'POST', token, json: { period, description: 'Trackers', quantity: 2, unitPriceCents: 1_250, status: 'approved', ...body } });
  expect(res.status).toBe(201);
  return json<InvoiceLine>(res);
};
const createCompany = async (name: string, address = '') =>
  json<Company>(await api('companies', { method: 'POST', token: (await signedIn('admin')).token, json: { name: `${name} ${crypto.randomUUID().slice(0, 6)}`, address } }));
const close = (source: string, period: string, as = token) => api(`invoices/${source}/periods/${period}/close`, { method: 'POST', token: as });
const closed = async (source: string, period: string) => {
  const res = await close(source, period);
  expect(res.status).toBe(201);
  return (await json<{ invoices: StatementDetail[] }>(res)).invoices;
};
const monthInvoices = async (source: string, period: string) =>
  (await json<{ invoices: StatementDetail[] }>(await api(`invoices/${source}/periods/${period}/invoices`, { token }))).invoices;
const statementCount = (period: string) => env.DB.prepare("SELECT count(*) AS n FROM statements WHERE ledger <> 'gifs' AND period = ?1").bind(period).first<number>('n');

/**
 * The month-close invariants, read straight from D1: each ledger month has at most one invoice
 * that is not void per company; an invoice's total is the sum of its copy; its copy equals its
 * live lines while it is issued or paid, and every copied line names the invoice's company; a
 * ledger line is invoiced exactly while on such an invoice.
 */
const expectCloseInvariants = async () => {
  const twice = await env.DB.prepare(
    "SELECT ledger, period, company_id FROM statements WHERE ledger <> 'gifs' AND status <> 'void' GROUP BY ledger, period, company_id HAVING count(*) > 1",
  ).all();
  expect(twice.results, "a company's month closes once").toEqual([]);
  const drift = await env.DB.prepare(
    `SELECT s.id FROM statements s WHERE s.ledger <> 'gifs' AND (s.total_cents <> (SELECT coalesce(sum(amount_cents), 0) FROM statement_lines WHERE statement_id = s.id)
       OR (s.status IN ('issued', 'paid') AND EXISTS (SELECT 1 FROM invoice_lines l WHERE l.statement_id = s.id AND NOT EXISTS (SELECT 1 FROM statement_lines c
         WHERE c.statement_id = s.id AND c.line_id = l.id AND c.amount_cents = l.amount_cents AND c.quantity = l.quantity))))`,
  ).all();
  expect(drift.results, 'an invoice totals its copy, which equals its frozen lines').toEqual([]);
  const strangers = await env.DB.prepare(
    `SELECT c.id FROM statement_lines c JOIN statements s ON s.id = c.statement_id WHERE s.ledger <> 'gifs' AND (s.company_id IS NULL OR c.company_id IS NOT s.company_id)`,
  ).all();
  expect(strangers.results, 'an invoice bills one company, named on each of its lines').toEqual([]);
  const status = await env.DB.prepare(
    `SELECT l.id FROM invoice_lines l LEFT JOIN statements s ON s.id = l.statement_id WHERE l.source IN ('autofi', '3dtracking')
       AND (l.status = 'invoiced') <> (coalesce(s.status, '') IN ('issued', 'paid'))`,
  ).all();
  expect(status.results, 'a ledger line is invoiced exactly while on its invoice').toEqual([]);
};

let acme: Company;
let bolt: Company;
let crane: Company;

beforeAll(async () => {
  ({ token } = await signedIn('billing'));
  ({ token: staff } = await signedIn('staff'));
  // Created in the order that is not their names', so the invoices' numbers follow the names.
  crane = await createCompany('Crane', '3 Crane Street');
  acme = await createCompany('Acme', '1 Acme Road\nAcmeton');
  bolt = await createCompany('Bolt', '2 Bolt Lane');
});

describe('closing a month', () => {
  it("makes one numbered, issued invoice per company, billed to it, every line naming it; drafts and other months stay", async () => {
    const period = freshPeriod();
    const c1 = await addLine('autofi', period, { companyId: crane.id });
    const a1 = await addLine('autofi', period, { companyId: acme.id });
    const b1 = await addLine('autofi', period, { companyId: bolt.id, quantity: 3, unitPriceCents: 999, reference: 'PO-1' });
    const a2 = await addLine('autofi', period, { companyId: acme.id, quantity: 1 });
    const draft = await addLine('autofi', period, { companyId: acme.id, status: 'draft' });
    const lostDraft = await addLine('autofi', period, { status: 'draft' });
    const other = await addLine('3dtracking', period, { companyId: acme.id });

    const invoices = await closed('autofi', period);
    expect(invoices.map((i) => [i.number, i.companyId, i.companyName, i.companyAddress, i.status, i.totalCents, i.lineCount, i.balanceCents])).toEqual([
      [`AUTOFI-${period}-1`, acme.id, acme.name, '1 Acme Road\nAcmeton', 'issued', 2_500 + 1_250, 2, 3_750],
      [`AUTOFI-${period}-2`, bolt.id, bolt.name, '2 Bolt Lane', 'issued', 2_997, 1, 2_997],
      [`AUTOFI-${period}-3`, crane.id, crane.name, '3 Crane Street', 'issued', 2_500, 1, 2_500],
    ]);
    const [forAcme, forBolt, forCrane] = invoices as [StatementDetail, StatementDetail, StatementDetail];
    expect(forAcme.lines.map((l) => [l.id, l.amountCents, l.companyId, l.companyName])).toEqual([
      [a1.id, 2_500, acme.id, acme.name],
      [a2.id, 1_250, acme.id, acme.name],
    ]);
    expect(forBolt.lines.map((l) => [l.id, l.reference, l.companyName])).toEqual([[b1.id, 'PO-1', bolt.name]]);
    expect(forCrane.lines.map((l) => [l.id, l.companyName])).toEqual([[c1.id, crane.name]]);
    for (const [line, invoice] of [[a1, forAcme], [a2, forAcme], [b1, forBolt], [c1, forCrane]] as const) {
      expect(await json<InvoiceLine>(await api(`invoices/lines/${line.id}`, { token }))).toMatchObject({ status: 'invoiced', statementId: invoice.id, statementNumber: invoice.number });
    }
    for (const line of [draft, lostDraft]) expect(await json<InvoiceLine>(await api(`invoices/lines/${line.id}`, { token }))).toMatchObject({ status: 'draft', statementId: null });
    expect(await json<InvoiceLine>(await api(`invoices/lines/${other.id}`, { token }))).toMatchObject({ status: 'approved', statementId: null });
    // A billed line is frozen.
    await expectConflict(await api(`invoices/lines/${a1.id}`, { method: 'PATCH', token, json: { quantity: 9 } }));
    // The invoice read alone is the same document, its lines naming the company too.
    expect(await json<StatementDetail>(await api(`invoices/gifs/statements/${forBolt.id}`, { token }))).toEqual(forBolt);

    for (const invoice of invoices) {
      const history = (await json<Page<AuditEntry>>(await api(`audit?entity=statement&entityId=${invoice.id}`, { token }))).items;
      expect(history).toMatchObject([
        { action: 'create', changes: { ledger: [null, 'autofi'], period: [null, period], sequence: [null, invoice.sequence], companyId: [null, invoice.companyId], status: [null, 'issued'] } },
      ]);
    }
    expect(await monthInvoices('autofi', period)).toEqual(invoices);
    expect(await monthInvoices('3dtracking', period)).toEqual([]);

    // 3D Tracking numbers its own.
    expect((await closed('3dtracking', period)).map((i) => [i.number, i.companyId, i.totalCents])).toEqual([[`3DTRACKING-${period}-1`, acme.id, 2_500]]);
    // GIFS statements stay GIFS only.
    const gifs = await json<Page<Statement>>(await api('invoices/gifs/statements?pageSize=200', { token }));
    expect(gifs.items.some((s) => s.ledger !== 'gifs')).toBe(false);
    await expectCloseInvariants();
  });

  it('refuses approved lines without a company (409 naming them) and closes nothing', async () => {
    const period = freshPeriod();
    const billable = await addLine('autofi', period, { companyId: acme.id });
    const lost = await addLine('autofi', period, { description: 'Unassigned trackers\nsecond line' });
    const lost2 = await addLine('autofi', period, { description: 'Spare SIMs' });
    const before = await env.DB.prepare('SELECT count(*) AS n FROM audit_log').first<number>('n');

    const refusal = await expectConflict(await close('autofi', period));
    expect(refusal.detail).toContain('2 approved lines');
    expect(refusal.detail).toContain(`${lost.id} (Unassigned trackers)`);
    expect(refusal.detail).toContain(`${lost2.id} (Spare SIMs)`);
    expect((refusal as { errors?: Record<string, string[]> }).errors?.lineIds).toEqual([`No company: ${lost.id}, ${lost2.id}`]);
    expect(await statementCount(period)).toBe(0);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM audit_log').first<number>('n')).toBe(before);
    for (const line of [billable, lost, lost2]) expect(await json<InvoiceLine>(await api(`invoices/lines/${line.id}`, { token }))).toMatchObject({ status: 'approved', statementId: null });
    expect(await monthInvoices('autofi', period)).toEqual([]);

    // Back to draft, they wait; the rest closes.
    for (const line of [lost, lost2]) expect((await api(`invoices/lines/${line.id}`, { method: 'PATCH', token, json: { status: 'draft' } })).status).toBe(200);
    expect((await closed('autofi', period)).map((i) => i.companyId)).toEqual([acme.id]);
    await expectCloseInvariants();
  });

  it('refuses a second close (409 naming the invoices), an empty month (400), bad input (400), GIFS (404) and staff (403); a new company closes later', async () => {
    const period = freshPeriod();
    await addLine('autofi', period, { companyId: acme.id });
    await addLine('autofi', period, { companyId: bolt.id });
    expect((await closed('autofi', period)).length).toBe(2);
    const late = await addLine('autofi', period, { companyId: bolt.id });
    const detail = (await expectConflict(await close('autofi', period))).detail;
    expect(detail).toContain(`AUTOFI-${period}-2`);
    expect(detail).not.toContain(`AUTOFI-${period}-1`);
    // A company with no invoice of the month yet gets its own, numbered on; Bolt's late line waits.
    const craneLine = await addLine('autofi', period, { companyId: crane.id });
    expect((await closed('autofi', period)).map((i) => [i.number, i.companyId, i.lines.map((l) => l.id)])).toEqual([[`AUTOFI-${period}-3`, crane.id, [craneLine.id]]]);
    expect(await json<InvoiceLine>(await api(`invoices/lines/${late.id}`, { token }))).toMatchObject({ status: 'approved', statementId: null });

    expect((await expectError(await close('autofi', freshPeriod()), 400)).errors?.period).toEqual(['No approved lines to invoice']);
    expect((await expectError(await close('autofi', '2026-13'), 400)).errors?.period).toBeDefined();
    expect((await expectError(await close('autofi', 'last-month'), 400)).errors?.period).toBeDefined();
    expect((await expectError(await api(`invoices/autofi/periods/2026-13/invoices`, { token }), 400)).errors?.period).toBeDefined();
    expect((await close('gifs-sla', period)).status).toBe(404);
    expect((await api(`invoices/gifs-sla/periods/${period}/invoices`, { token })).status).toBe(404);
    expect((await close('unknown', period)).status).toBe(404);
    expect((await expectError(await close('3dtracking', period, staff), 403)).message).toMatch(/billing or admin/);
    // Reading the month's invoices needs no billing role.
    expect((await api(`invoices/autofi/periods/${period}/invoices`, { token: staff })).status).toBe(200);
    await expectCloseInvariants();
  });

  it('a month closes once: eight concurrent closes make one invoice per company, and seven are refused', async () => {
    const period = freshPeriod();
    for (const company of [acme, bolt, crane]) for (let n = 0; n < 2; n++) await addLine('3dtracking', period, { companyId: company.id });
    const answers = await Promise.all(Array.from({ length: 8 }, () => close('3dtracking', period)));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    const winner = answers.find((r) => r.status === 201)!;
    expect((await json<{ invoices: StatementDetail[] }>(winner)).invoices.map((i) => i.sequence)).toEqual([1, 2, 3]);
    expect(await statementCount(period)).toBe(3);
    await expectCloseInvariants();
  });

  it('a close racing line edits: each edit lands before the close and is billed as edited, or is refused; the copy matches', async () => {
    for (let round = 0; round < 6; round++) {
      const period = freshPeriod();
      const lines = await Promise.all([addLine('autofi', period, { companyId: acme.id }), addLine('autofi', period, { companyId: bolt.id }), addLine('autofi', period, { companyId: acme.id })]);
      const edits = lines.map((line, n) => api(`invoices/lines/${line.id}`, { method: 'PATCH', token, json: { quantity: 10 + n } }));
      const [done, ...edited] = await Promise.all([close('autofi', period), ...edits]);
      expect(done.status).toBe(201);
      const { invoices } = await json<{ invoices: StatementDetail[] }>(done);
      const billedLines = invoices.flatMap((i) => i.lines);
      for (const [n, res] of edited.entries()) {
        expect([200, 409]).toContain(res.status);
        expect(billedLines.find((l) => l.id === lines[n]!.id)?.quantity).toBe(res.status === 200 ? 10 + n : 2);
      }
      for (const invoice of invoices) expect(invoice.totalCents).toBe(invoice.lines.reduce((sum, l) => sum + l.amountCents, 0));
    }
    await expectCloseInvariants();
  });

  it("follows the document rules: payments, and a void that keeps the copy and bills that company's month again", async () => {
    const period = freshPeriod();
    await addLine('autofi', period, { companyId: acme.id });
    await addLine('autofi', period, { companyId: bolt.id });
    const [invoice, kept] = (await closed('autofi', period)) as [StatementDetail, StatementDetail];
    const paid = await api(`invoices/gifs/statements/${invoice.id}/payments`, { method: 'POST', token, json: { paidOn: '2026-11-01', amountCents: 500, method: 'cash' } });
    expect(await json<StatementDetail>(paid)).toMatchObject({ status: 'issued', paidCents: 500, balanceCents: 2_000 });
    expect((await monthInvoices('autofi', period))[0]).toMatchObject({ id: invoice.id, paidCents: 500, balanceCents: 2_000, payments: [{ amountCents: 500 }] });
    // Paid money is reversed (admin) before a void.
    const { token: admin } = await signedIn('admin');
    const [payment] = (await json<StatementDetail>(await api(`invoices/gifs/statements/${invoice.id}`, { token }))).payments;
    expect((await api(`invoices/gifs/statements/${invoice.id}/payments/${payment!.id}`, { method: 'DELETE', token: admin })).status).toBe(200);
    const voided = await json<StatementDetail>(await api(`invoices/gifs/statements/${invoice.id}`, { method: 'PATCH', token, json: { status: 'void', from: 'issued', reason: 'Wrong rate' } }));
    expect(voided).toMatchObject({ status: 'void', totalCents: 2_500, lineCount: 1, balanceCents: 0 });
    expect((await monthInvoices('autofi', period)).map((i) => i.id)).toEqual([kept.id]);
    expect((await closed('autofi', period)).map((i) => [i.number, i.companyId, i.status, i.totalCents])).toEqual([[`AUTOFI-${period}-3`, acme.id, 'issued', 2_500]]);
    await expectCloseInvariants();
  });

  it('tells everyone watching live about each invoice the close made', async () => {
    const period = freshPeriod();
    await addLine('autofi', period, { companyId: acme.id });
    await addLine('autofi', period, { companyId: bolt.id });
    const watcher = await connect(staff);
    await watcher.next(isType('hello'));
    const invoices = await closed('autofi', period);
    for (const invoice of invoices) {
      expect(await watcher.next(isType('changed', (m) => m.entity === 'statement' && m.id === invoice.id))).toMatchObject({ action: 'create', version: 1 });
    }
    watcher.ws.close();
  });

  it('a month closed before invoices were per company holds all of its companies until that invoice is voided', async () => {
    const period = freshPeriod();
    const line = await addLine('autofi', period, { companyId: acme.id });
    await env.DB.prepare("INSERT INTO statements (ledger, period, company_id, sequence, status, issued_at) VALUES ('autofi', ?1, NULL, 1, 'issued', '2026-01-01T00:00:00.000Z')")
      .bind(period)
      .run();
    expect((await expectConflict(await close('autofi', period))).detail).toContain(`AUTOFI-${period}-1`);
    expect(await json<InvoiceLine>(await api(`invoices/lines/${line.id}`, { token }))).toMatchObject({ status: 'approved', statementId: null });
  });
});

describe('month invoices are owed money like statements', () => {
  const aging = async () => json<AgingSummary>(await api('invoices/gifs/statements/aging', { token }));
  const listed = async (query: string) => (await json<Page<Statement>>(await api(`invoices/gifs/statements?pageSize=200&${query}`, { token }))).items.map((s) => s.id);

  it('count in the aging summary, and list and filter as partially paid', async () => {
    const period = freshPeriod();
    await addLine('3dtracking', period, { companyId: acme.id, quantity: 4, unitPriceCents: 1_000 });
    await addLine('3dtracking', period, { companyId: bolt.id, quantity: 1, unitPriceCents: 700 });
    const before = await aging();
    const [forAcme, forBolt] = (await closed('3dtracking', period)) as [StatementDetail, StatementDetail];
    // Issued 50 days ago with 30 days' terms: 20 days past due.
    await env.DB.prepare(`UPDATE statements SET issued_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-50 days') WHERE id = ?1`).bind(forAcme.id).run();
    const paid = await api(`invoices/gifs/statements/${forAcme.id}/payments`, { method: 'POST', token, json: { paidOn: '2026-11-02', amountCents: 1_500, method: 'bank' } });
    expect(await json<StatementDetail>(paid)).toMatchObject({ status: 'issued', paidCents: 1_500, balanceCents: 2_500 });

    const after = await aging();
    expect(after.buckets.days1to30.statements - before.buckets.days1to30.statements).toBe(1);
    expect(after.buckets.days1to30.balanceCents - before.buckets.days1to30.balanceCents).toBe(2_500);
    expect(after.buckets.current.statements - before.buckets.current.statements).toBe(1);
    expect(after.buckets.current.balanceCents - before.buckets.current.balanceCents).toBe(700);

    expect(await listed('ledger=3dtracking&state=partial')).toContain(forAcme.id);
    expect(await listed('ledger=3dtracking&state=partial')).not.toContain(forBolt.id);
    expect(await listed('ledger=3dtracking&state=issued')).toContain(forBolt.id);
    expect(await listed('ledger=3dtracking&state=issued')).not.toContain(forAcme.id);
    expect(await listed('ledger=3dtracking&overdue=true')).toContain(forAcme.id);
    // GIFS stays the default, and a bad ledger or state is a 400.
    expect(await listed('state=partial')).not.toContain(forAcme.id);
    expect((await expectError(await api('invoices/gifs/statements?ledger=gifs-sla', { token }), 400)).errors?.ledger).toBeDefined();
    expect((await expectError(await api('invoices/gifs/statements?state=partly', { token }), 400)).errors?.state).toBeDefined();
  });
});
