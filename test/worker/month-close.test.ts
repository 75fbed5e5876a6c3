import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, InvoiceLine, Page, Statement, StatementDetail } from '../../src/shared/types';
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
const close = (source: string, period: string, as = token) => api(`invoices/${source}/periods/${period}/close`, { method: 'POST', token: as });

/**
 * The month-close invariants, read straight from D1: each ledger month has at most one invoice
 * that is not void; an invoice's total is the sum of its copy; its copy equals its live lines
 * while it is issued or paid; a ledger line is invoiced exactly while on such an invoice.
 */
const expectCloseInvariants = async () => {
  const twice = await env.DB.prepare("SELECT ledger, period FROM statements WHERE ledger <> 'gifs' AND status <> 'void' GROUP BY ledger, period HAVING count(*) > 1").all();
  expect(twice.results, 'a month closes once').toEqual([]);
  const drift = await env.DB.prepare(
    `SELECT s.id FROM statements s WHERE s.ledger <> 'gifs' AND (s.total_cents <> (SELECT coalesce(sum(amount_cents), 0) FROM statement_lines WHERE statement_id = s.id)
       OR (s.status IN ('issued', 'paid') AND EXISTS (SELECT 1 FROM invoice_lines l WHERE l.statement_id = s.id AND NOT EXISTS (SELECT 1 FROM statement_lines c
         WHERE c.statement_id = s.id AND c.line_id = l.id AND c.amount_cents = l.amount_cents AND c.quantity = l.quantity))))`,
  ).all();
  expect(drift.results, 'an invoice totals its copy, which equals its frozen lines').toEqual([]);
  const status = await env.DB.prepare(
    `SELECT l.id FROM invoice_lines l LEFT JOIN statements s ON s.id = l.statement_id WHERE l.source IN ('autofi', '3dtracking')
       AND (l.status = 'invoiced') <> (coalesce(s.status, '') IN ('issued', 'paid'))`,
  ).all();
  expect(status.results, 'a ledger line is invoiced exactly while on its invoice').toEqual([]);
};

beforeAll(async () => {
  ({ token } = await signedIn('billing'));
  ({ token: staff } = await signedIn('staff'));
});

describe('closing a month', () => {
  it("turns the month's approved lines into one numbered, issued invoice with its copy; drafts and other months stay", async () => {
    const period = freshPeriod();
    const a = await addLine('autofi', period);
    const b = await addLine('autofi', period, { quantity: 3, unitPriceCents: 999, reference: 'PO-1' });
    const draft = await addLine('autofi', period, { status: 'draft' });
    const other = await addLine('3dtracking', period);

    const res = await close('autofi', period);
    expect(res.status).toBe(201);
    const invoice = await json<StatementDetail>(res);
    expect(invoice).toMatchObject({ ledger: 'autofi', number: `AUTOFI-${period}-1`, status: 'issued', totalCents: 2_500 + 2_997, lineCount: 2, balanceCents: 5_497 });
    expect(invoice.lines.map((l) => [l.id, l.amountCents, l.reference])).toEqual([
      [a.id, 2_500, ''],
      [b.id, 2_997, 'PO-1'],
    ]);
    for (const line of [a, b]) {
      expect(await json<InvoiceLine>(await api(`invoices/lines/${line.id}`, { token }))).toMatchObject({ status: 'invoiced', statementId: invoice.id, statementNumber: `AUTOFI-${period}-1` });
    }
    expect(await json<InvoiceLine>(await api(`invoices/lines/${draft.id}`, { token }))).toMatchObject({ status: 'draft', statementId: null });
    expect(await json<InvoiceLine>(await api(`invoices/lines/${other.id}`, { token }))).toMatchObject({ status: 'approved', statementId: null });
    // A billed line is frozen.
    await expectConflict(await api(`invoices/lines/${a.id}`, { method: 'PATCH', token, json: { quantity: 9 } }));

    const history = (await json<Page<AuditEntry>>(await api(`audit?entity=statement&entityId=${invoice.id}`, { token }))).items;
    expect(history).toMatchObject([{ action: 'create', changes: { ledger: [null, 'autofi'], period: [null, period], status: [null, 'issued'] } }]);
    expect(await json<{ invoice: StatementDetail | null }>(await api(`invoices/autofi/periods/${period}/invoice`, { token }))).toMatchObject({ invoice: { id: invoice.id } });
    expect(await json<{ invoice: StatementDetail | null }>(await api(`invoices/3dtracking/periods/${period}/invoice`, { token }))).toEqual({ invoice: null });

    // 3D Tracking numbers its own.
    expect(await json<StatementDetail>(await close('3dtracking', period))).toMatchObject({ number: `3DTRACKING-${period}-1`, totalCents: 2_500 });
    // GIFS statements stay GIFS only.
    const gifs = await json<Page<Statement>>(await api('invoices/gifs/statements?pageSize=200', { token }));
    expect(gifs.items.some((s) => s.ledger !== 'gifs')).toBe(false);
    await expectCloseInvariants();
  });

  it('refuses a second close (409), an empty month (400), bad input (400), GIFS (404) and staff (403)', async () => {
    const period = freshPeriod();
    await addLine('autofi', period);
    expect((await close('autofi', period)).status).toBe(201);
    await addLine('autofi', period);
    expect((await expectConflict(await close('autofi', period))).detail).toContain(`AUTOFI-${period}-1`);
    expect((await expectError(await close('autofi', freshPeriod()), 400)).errors?.period).toEqual(['No approved lines to invoice']);
    expect((await expectError(await close('autofi', '2026-13'), 400)).errors?.period).toBeDefined();
    expect((await expectError(await close('autofi', 'last-month'), 400)).errors?.period).toBeDefined();
    expect((await close('gifs-sla', period)).status).toBe(404);
    expect((await close('unknown', period)).status).toBe(404);
    expect((await expectError(await close('3dtracking', period, staff), 403)).message).toMatch(/billing or admin/);
    await expectCloseInvariants();
  });

  it('a month closes once: eight concurrent closes make one invoice', async () => {
    const period = freshPeriod();
    for (let n = 0; n < 3; n++) await addLine('3dtracking', period);
    const answers = await Promise.all(Array.from({ length: 8 }, () => close('3dtracking', period)));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    const count = await env.DB.prepare("SELECT count(*) AS n FROM statements WHERE ledger = '3dtracking' AND period = ?1").bind(period).first<number>('n');
    expect(count).toBe(1);
    await expectCloseInvariants();
  });

  it('a close racing line edits: each edit lands before the close and is billed as edited, or is refused; the copy matches', async () => {
    for (let round = 0; round < 6; round++) {
      const period = freshPeriod();
      const lines = await Promise.all([addLine('autofi', period), addLine('autofi', period), addLine('autofi', period)]);
      const edits = lines.map((line, n) => api(`invoices/lines/${line.id}`, { method: 'PATCH', token, json: { quantity: 10 + n } }));
      const [closed, ...edited] = await Promise.all([close('autofi', period), ...edits]);
      expect(closed.status).toBe(201);
      const invoice = await json<StatementDetail>(closed);
      for (const [n, res] of edited.entries()) {
        expect([200, 409]).toContain(res.status);
        const billed = invoice.lines.find((l) => l.id === lines[n]!.id);
        expect(billed?.quantity).toBe(res.status === 200 ? 10 + n : 2);
      }
      expect(invoice.totalCents).toBe(invoice.lines.reduce((sum, l) => sum + l.amountCents, 0));
    }
    await expectCloseInvariants();
  });

  it('follows the document rules: payments, and a void that keeps the copy and lets the month close again', async () => {
    const period = freshPeriod();
    await addLine('autofi', period);
    const invoice = await json<StatementDetail>(await close('autofi', period));
    const paid = await api(`invoices/gifs/statements/${invoice.id}/payments`, { method: 'POST', token, json: { paidOn: '2026-11-01', amountCents: 500, method: 'cash' } });
    expect(await json<StatementDetail>(paid)).toMatchObject({ status: 'issued', balanceCents: 2_000 });
    // Paid money is reversed (admin) before a void.
    const { token: admin } = await signedIn('admin');
    const [payment] = (await json<StatementDetail>(await api(`invoices/gifs/statements/${invoice.id}`, { token }))).payments;
    expect((await api(`invoices/gifs/statements/${invoice.id}/payments/${payment!.id}`, { method: 'DELETE', token: admin })).status).toBe(200);
    const voided = await json<StatementDetail>(await api(`invoices/gifs/statements/${invoice.id}`, { method: 'PATCH', token, json: { status: 'void', from: 'issued', reason: 'Wrong rate' } }));
    expect(voided).toMatchObject({ status: 'void', totalCents: 2_500, lineCount: 1 });
    const again = await json<StatementDetail>(await close('autofi', period));
    expect(again).toMatchObject({ number: `AUTOFI-${period}-2`, status: 'issued', totalCents: 2_500 });
    await expectCloseInvariants();
  });
});
