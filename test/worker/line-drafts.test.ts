import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { InvoiceLine } from '../../src/shared/types';
import { api, expectConflict, expectError, readJson, signedIn } from './support';

// Ledger editing (README "Ledger editing"): delete a draft line, approve many drafts at once.

let billing: string;
let staff: string;

const addLine = async (body: Record<string, unknown> = {}) => {
  const res = await api('invoices/autofi/lines', { method: 'POST', token: billing, json: { period: '2032-04', description: 'Usage', quantity: 2, unitPriceCents: 150, ...body } });
  expect(res.status).toBe(201);
  return (await res.json()) as InvoiceLine;
};
const approve = (ids: unknown, token = billing) => api('invoices/lines/approve', { method: 'POST', token, json: { ids } });
const statusOf = async (id: number) => (await env.DB.prepare('SELECT status FROM invoice_lines WHERE id = ?1').bind(id).first<string>('status')) ?? null;
const entries = async (id: number, action: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM audit_log WHERE entity = 'invoice_line' AND entity_id = ?1 AND action = ?2").bind(id, action).first<number>('n')) ?? 0;

beforeAll(async () => {
  ({ token: billing } = await signedIn('billing'));
  ({ token: staff } = await signedIn('staff'));
});

describe('deleting a draft line', () => {
  it('deletes a draft with its audit entry, and refuses an approved line with 409, changing nothing', async () => {
    const draft = await addLine();
    expect((await api(`invoices/lines/${draft.id}`, { method: 'DELETE', token: billing })).status).toBe(204);
    expect(await statusOf(draft.id)).toBeNull();
    const [entry] = (await env.DB.prepare("SELECT changes FROM audit_log WHERE entity_id = ?1 AND action = 'delete' AND entity = 'invoice_line'").bind(draft.id).all<{ changes: string }>()).results;
    expect(JSON.parse(entry?.changes ?? '{}')).toMatchObject({ status: ['draft', null], amountCents: [300, null] });

    const approved = await addLine({ status: 'approved' });
    const refused = await expectConflict(await api(`invoices/lines/${approved.id}`, { method: 'DELETE', token: billing }));
    expect(refused.detail).toBe('This line is approved; only a draft line can be deleted');
    expect(await statusOf(approved.id)).toBe('approved');
    expect(await entries(approved.id, 'delete')).toBe(0);
  });

  it('answers 404, 400 and 403 as it should', async () => {
    await expectError(await api('invoices/lines/99999999', { method: 'DELETE', token: billing }), 404);
    await expectError(await api('invoices/lines/x', { method: 'DELETE', token: billing }), 400);
    const draft = await addLine();
    expect((await expectError(await api(`invoices/lines/${draft.id}`, { method: 'DELETE', token: staff }), 403)).message).toBe(
      'You need the billing or admin role to create or edit invoice lines',
    );
    expect(await statusOf(draft.id)).toBe('draft');
  });

  it('lets one of a delete and an approval sent at once win, never both', async () => {
    const draft = await addLine();
    const [removed, approved] = await Promise.all([api(`invoices/lines/${draft.id}`, { method: 'DELETE', token: billing }), approve([draft.id])]);
    // Deleted then not approvable, or approved then not deletable.
    expect([
      [204, 409],
      [409, 200],
    ]).toContainEqual([removed.status, approved.status]);
    expect(await statusOf(draft.id)).toBe(removed.status === 204 ? null : 'approved');
  });
});

describe('approving drafts at once', () => {
  it('approves every named draft, one audit entry each', async () => {
    const lines = await Promise.all([addLine(), addLine(), addLine()]);
    const res = await readJson<{ approved: number }>(await approve(lines.map((l) => l.id)));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ approved: 3 });
    for (const line of lines) {
      expect(await statusOf(line.id)).toBe('approved');
      expect(await entries(line.id, 'update')).toBe(1);
    }
    const [after] = (await env.DB.prepare('SELECT version FROM invoice_lines WHERE id = ?1').bind(lines[0]?.id).all<{ version: number }>()).results;
    expect(after?.version).toBe(2);
  });

  it('approves none when one is not a draft, naming it', async () => {
    const drafts = await Promise.all([addLine(), addLine()]);
    const approved = await addLine({ status: 'approved' });
    const refused = await expectConflict(await approve([...drafts.map((l) => l.id), approved.id, 99999999]));
    expect(refused.detail).toBe(`Nothing was approved: lines ${approved.id} (approved), 99999999 (not found) are not a draft`);
    for (const line of drafts) {
      expect(await statusOf(line.id)).toBe('draft');
      expect(await entries(line.id, 'update')).toBe(0);
    }
  });

  it('lets exactly one of two overlapping approvals through', async () => {
    const [a, b, c] = await Promise.all([addLine(), addLine(), addLine()]);
    const answers = await Promise.all([approve([a?.id, b?.id]), approve([b?.id, c?.id])]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const statuses = await Promise.all([a, b, c].map((l) => statusOf(l?.id ?? 0)));
    expect(statuses.filter((s) => s === 'approved')).toHaveLength(2);
  });

  it('refuses bad input with 400 and other roles with 403', async () => {
    const draft = await addLine();
    for (const ids of [[], [0], [1.5], ['1'], [draft.id, draft.id], 'all', null, Array.from({ length: 201 }, (_, i) => i + 1)]) {
      const error = await expectError(await approve(ids), 400);
      expect(error.errors ?? { body: [error.message] }).not.toEqual({});
    }
    await expectError(await api('invoices/lines/approve', { method: 'POST', token: billing, json: { ids: [draft.id], extra: true } }), 400);
    await expectError(await approve([draft.id], staff), 403);
    expect(await statusOf(draft.id)).toBe('draft');
  });
});
