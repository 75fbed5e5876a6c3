import { env } from 'cloudflare:test';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CreatedWebhook, WebhookEvent } from '../../src/shared/schemas/webhooks';
import type { Company, ImportBatch, ImportResult, InvoiceLine, Page, StatementDetail } from '../../src/shared/types';
import { api, expectConflict, expectError, readJson, signedIn } from './support';

// The billing events of docs/api.md#webhook-events: each written in the batch of the write that
// causes it, one delivery per active hook subscribed to it, with the record as the API answers it.

const BILLING_EVENTS: WebhookEvent[] = ['statement.issued', 'statement.paid', 'statement.voided', 'invoice_line.created', 'import.completed'];

let admin: { token: string; user: { id: number } };
let company: Company;
let hooks: { matching: number; second: number; inactive: number; other: number };
let month = 0;

/** A month of its own for each statement, so no test bills another's lines. */
const freshPeriod = () => {
  month += 1;
  return `2041-${String(month).padStart(2, '0')}`;
};

const createHook = async (json: Record<string, unknown>) => {
  const { status, body, text } = await readJson<CreatedWebhook>(await api('webhooks', { method: 'POST', token: admin.token, json }));
  expect(status, text).toBe(201);
  return body.id;
};

interface DeliveryRow {
  webhook_id: number;
  event: string;
  payload: string;
  request_id: string | null;
}

const deliveries = async (event: string) =>
  (await env.DB.prepare('SELECT webhook_id, event, payload, request_id FROM webhook_deliveries WHERE event = ?1 ORDER BY at, id').bind(event).all<DeliveryRow>()).results;

/**
 * The event's deliveries: exactly one to each active hook subscribed to it, none to the others,
 * all with one payload, written by the request that wrote `entity`'s newest audit entry (so in its
 * batch). Answers the payload's data.
 */
const expectDelivered = async (event: WebhookEvent, entity: string) => {
  const rows = await deliveries(event);
  expect(rows.map((row) => row.webhook_id).sort((a, b) => a - b)).toEqual([hooks.matching, hooks.second].sort((a, b) => a - b));
  const [first, second] = rows as [DeliveryRow, DeliveryRow];
  const payload = JSON.parse(first.payload) as { type: string; data: Record<string, unknown> };
  expect(JSON.parse(second.payload)).toEqual(payload);
  expect(payload.type).toBe(event);
  const entry = await env.DB.prepare('SELECT request_id FROM audit_log WHERE entity = ?1 ORDER BY id DESC LIMIT 1').bind(entity).first<string>('request_id');
  expect(entry).toBeTruthy();
  expect(first.request_id).toBe(entry);
  return payload.data;
};

const json = async <T>(res: Response, status: number) => {
  const { status: actual, body, text } = await readJson<T>(res);
  expect(actual, text).toBe(status);
  return body;
};
const addLine = async (period: string, extra: Record<string, unknown> = {}) =>
  json<InvoiceLine>(
    await api('invoices/gifs-sla/lines', {
      method: 'POST',
      token: admin.token,
      json: { period, companyId: company.id, description: 'Monitoring', quantity: 2, unitPriceCents: 150, reference: 'R-1', status: 'approved', ...extra },
    }),
    201,
  );
const getStatement = async (id: number) => json<StatementDetail>(await api(`invoices/gifs/statements/${id}`, { token: admin.token }), 200);
const move = (id: number, body: Record<string, unknown>) => api(`invoices/gifs/statements/${id}`, { method: 'PATCH', token: admin.token, json: body });
const pay = (id: number, amountCents: number) =>
  api(`invoices/gifs/statements/${id}/payments`, { method: 'POST', token: admin.token, json: { paidOn: '2041-01-15', amountCents, method: 'bank', reference: 'TX' } });

/** An open statement billing two lines (2 × 150 ¢ and 1 × 99 ¢) in a month of its own. */
const openStatement = async () => {
  const period = freshPeriod();
  await addLine(period);
  await addLine(period, { quantity: 1, unitPriceCents: 99, reference: 'R-2' });
  return json<StatementDetail>(await api('invoices/gifs/statements', { method: 'POST', token: admin.token, json: { period } }), 201);
};
const issuedStatement = async () => {
  const statement = await openStatement();
  expect((await move(statement.id, { status: 'issued' })).status).toBe(200);
  return statement;
};

beforeAll(async () => {
  admin = await signedIn('admin');
  company = await json<Company>(
    await api('companies', { method: 'POST', token: admin.token, json: { name: `Billed ${crypto.randomUUID().slice(0, 6)}`, address: '1 Main Road\nCape Town' } }),
    201,
  );
});

beforeEach(async () => {
  // Each test starts with its own hooks and no deliveries, so the counts are this test's own.
  await env.DB.batch([env.DB.prepare('DELETE FROM webhook_deliveries'), env.DB.prepare('DELETE FROM webhooks')]);
  hooks = {
    matching: await createHook({ url: 'https://203.0.113.10/hook', events: BILLING_EVENTS }),
    second: await createHook({ url: 'https://203.0.113.11/hook', events: BILLING_EVENTS }),
    inactive: await createHook({ url: 'https://203.0.113.12/hook', events: BILLING_EVENTS, active: false }),
    other: await createHook({ url: 'https://203.0.113.13/hook', events: ['ticket.created'] }),
  };
});

describe('statement events', () => {
  it('statement.issued carries the statement as GET answers it after the issue, once per matching hook', async () => {
    const statement = await openStatement();
    expect(await deliveries('statement.issued')).toHaveLength(0);
    const issued = await json<StatementDetail>(await move(statement.id, { status: 'issued' }), 200);
    const data = await expectDelivered('statement.issued', 'statement');
    expect(data).toEqual({ ...(await getStatement(statement.id)), actorId: admin.user.id });
    expect(data).toEqual({ ...issued, actorId: admin.user.id });
    expect(data).toMatchObject({ status: 'issued', totalCents: 399, balanceCents: 399, lineCount: 2, overdue: false, companyAddress: '1 Main Road\nCape Town' });
    expect((data.lines as unknown[]).length).toBe(2);
  });

  it('a refused issue (409) and a refused void write no delivery', async () => {
    const statement = await issuedStatement();
    expect(await deliveries('statement.issued')).toHaveLength(2);
    await expectConflict(await move(statement.id, { status: 'issued' }));
    expect(await deliveries('statement.issued')).toHaveLength(2);

    expect((await pay(statement.id, 100)).status).toBe(201);
    await expectConflict(await move(statement.id, { status: 'void', reason: 'Wrong month' }));
    expect(await deliveries('statement.voided')).toHaveLength(0);
    expect(await deliveries('statement.paid')).toHaveLength(0);
  });

  it('statement.paid when a payment reaches the total, not before, with the payments as GET answers them', async () => {
    const statement = await issuedStatement();
    expect((await pay(statement.id, 300)).status).toBe(201);
    expect(await deliveries('statement.paid')).toHaveLength(0);
    await expectConflict(await pay(statement.id, 500));
    expect(await deliveries('statement.paid')).toHaveLength(0);

    const paid = await json<StatementDetail>(await pay(statement.id, 99), 201);
    const data = await expectDelivered('statement.paid', 'statement');
    expect(data).toEqual({ ...(await getStatement(statement.id)), actorId: admin.user.id });
    expect(data).toEqual({ ...paid, actorId: admin.user.id });
    expect(data).toMatchObject({ status: 'paid', paidCents: 399, balanceCents: 0 });
    expect((data.payments as unknown[]).length).toBe(2);
  });

  it('statement.paid when marked paid, with the balance payment the move added', async () => {
    const statement = await issuedStatement();
    const paid = await json<StatementDetail>(await move(statement.id, { status: 'paid' }), 200);
    const data = await expectDelivered('statement.paid', 'statement');
    expect(data).toEqual({ ...(await getStatement(statement.id)), actorId: admin.user.id });
    expect(data).toEqual({ ...paid, actorId: admin.user.id });
    expect(data.payments).toEqual([expect.objectContaining({ amountCents: 399, reference: 'Marked paid' })]);

    await expectConflict(await move(statement.id, { status: 'paid' }));
    expect(await deliveries('statement.paid')).toHaveLength(2);
  });

  it('statement.voided carries the void statement with its reason and copy', async () => {
    const statement = await issuedStatement();
    const voided = await json<StatementDetail>(await move(statement.id, { status: 'void', reason: 'Billed twice' }), 200);
    const data = await expectDelivered('statement.voided', 'statement');
    expect(data).toEqual({ ...(await getStatement(statement.id)), actorId: admin.user.id });
    expect(data).toEqual({ ...voided, actorId: admin.user.id });
    expect(data).toMatchObject({ status: 'void', voidReason: 'Billed twice', balanceCents: 0 });
    expect(await deliveries('statement.issued')).toHaveLength(2);
  });
});

describe('invoice line and import events', () => {
  it('invoice_line.created carries the line as GET answers it; a refused create writes none', async () => {
    const line = await addLine(freshPeriod(), { status: 'draft' });
    const data = await expectDelivered('invoice_line.created', 'invoice_line');
    expect(data).toEqual({ ...line, actorId: admin.user.id });
    expect(data).toEqual({ ...(await json<InvoiceLine>(await api(`invoices/lines/${line.id}`, { token: admin.token }), 200)), actorId: admin.user.id });

    await expectError(await api('invoices/gifs-sla/lines', { method: 'POST', token: admin.token, json: { period: '2041-01', companyId: 999_999, description: 'x', quantity: 1, unitPriceCents: 1 } }), 400);
    expect(await deliveries('invoice_line.created')).toHaveLength(2);
  });

  it('import.completed carries the import as the imports list answers it, and no invoice_line.created per line', async () => {
    const period = freshPeriod();
    const csv = ['period,company,description,quantity,unit_price,reference', `${period},${company.name},Trackers,3,12.50,I-1`, `${period},${company.name},SIMs,2,0.5,I-2`].join('\r\n');
    const send = () =>
      api(`invoices/autofi/lines/import?dryRun=false&fileName=vendor.csv`, { method: 'POST', token: admin.token, body: csv, headers: { 'content-type': 'text/csv' } });
    const result = await json<ImportResult>(await send(), 201);
    expect(result.created).toBe(2);
    const data = await expectDelivered('import.completed', 'import');
    const list = await json<Page<ImportBatch>>(await api('invoices/imports?source=autofi', { token: admin.token }), 200);
    expect(data).toEqual({ ...list.items.find((batch) => batch.id === result.batchId), actorId: admin.user.id });
    expect(data).toMatchObject({ id: result.batchId, created: 2, lines: 2, fileName: 'vendor.csv', userId: admin.user.id });
    expect(await deliveries('invoice_line.created')).toHaveLength(0);

    // A dry run writes nothing, so announces nothing.
    expect((await api('invoices/autofi/lines/import?dryRun=true', { method: 'POST', token: admin.token, body: csv, headers: { 'content-type': 'text/csv' } })).status).toBe(200);
    expect(await deliveries('import.completed')).toHaveLength(2);
  });

  it('writes nothing when no active hook subscribes', async () => {
    await env.DB.prepare('UPDATE webhooks SET active = 0 WHERE id IN (?1, ?2)').bind(hooks.matching, hooks.second).run();
    const statement = await issuedStatement();
    expect((await move(statement.id, { status: 'paid' })).status).toBe(200);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM webhook_deliveries').first<number>('n')).toBe(0);
  });
});
