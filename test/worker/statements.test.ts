import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Company, InvoiceLine, Page, Statement, StatementDetail } from '../../src/shared/types';
import { api, expectConflict, expectError, readJson, signedIn, sleep } from './support';

let token: string;
const json = async <T>(res: Response) => (await res.json()) as T;

const addLine = async (source: string, body: Record<string, unknown>) => {
  const res = await api(`invoices/${source}/lines`, { method: 'POST', token, json: { description: 'Line', quantity: 1, status: 'approved', ...body } });
  expect(res.status).toBe(201);
  return json<InvoiceLine>(res);
};
const generate = (period: string, extra: Record<string, unknown> = {}) => api('invoices/gifs/statements', { method: 'POST', token, json: { period, ...extra } });
const generated = async (period: string, extra: Record<string, unknown> = {}) => {
  const res = await generate(period, extra);
  expect(res.status).toBe(201);
  return json<StatementDetail>(res);
};
const move = (id: number, body: Record<string, unknown>) => api(`invoices/gifs/statements/${id}`, { method: 'PATCH', token, json: body });
const moved = async (id: number, body: Record<string, unknown>) => {
  const res = await move(id, body);
  expect(res.status).toBe(200);
  return json<StatementDetail>(res);
};
const patchLine = (id: number, body: Record<string, unknown>) => api(`invoices/lines/${id}`, { method: 'PATCH', token, json: body });
const getLine = async (id: number) => json<InvoiceLine>(await api(`invoices/lines/${id}`, { token }));
const getStatement = async (id: number) => json<StatementDetail>(await api(`invoices/gifs/statements/${id}`, { token }));
const createCompany = async (name: string, address = '') =>
  json<Company>(await api('companies', { method: 'POST', token, json: { name: `${name} ${crypto.randomUUID().slice(0, 6)}`, address } }));

/** A statement with `count` approved SLA lines of 1 × 100 ¢ in a period of its own. */
const openStatement = async (period: string, count = 2) => {
  for (let n = 0; n < count; n++) await addLine('gifs-sla', { period, unitPriceCents: 100, reference: `R${n}` });
  return generated(period);
};

interface LineRow {
  id: number;
  status: string;
  statement_id: number | null;
  quantity: number;
  unit_price_cents: number;
  amount_cents: number;
  description: string;
  reference: string;
  updated_at: string;
}

/**
 * The invariants of docs/architecture.md#billing-lines-and-statements, read straight from D1 for every statement and line:
 * totals equal the sum of their lines, lines are invoiced exactly while on an issued or paid
 * statement, amounts are quantity × price, void statements hold no live lines, numbers are unique.
 */
const expectInvariants = async () => {
  const drift = await env.DB.prepare(
    `SELECT s.id, s.total_cents, CASE WHEN s.status = 'open' THEN (SELECT coalesce(sum(amount_cents), 0) FROM invoice_lines WHERE statement_id = s.id)
       ELSE (SELECT coalesce(sum(amount_cents), 0) FROM statement_lines WHERE statement_id = s.id) END AS sum
     FROM statements s WHERE s.total_cents <> sum`,
  ).all();
  expect(drift.results, 'an open statement totals its lines, a billed one its copy').toEqual([]);
  const copyDrift = await env.DB.prepare(
    `SELECT s.id FROM statements s WHERE s.status IN ('issued', 'paid') AND (
       EXISTS (SELECT 1 FROM invoice_lines l WHERE l.statement_id = s.id AND NOT EXISTS (SELECT 1 FROM statement_lines c WHERE c.statement_id = s.id AND c.line_id = l.id
         AND c.amount_cents = l.amount_cents AND c.quantity = l.quantity AND c.unit_price_cents = l.unit_price_cents AND c.description = l.description AND c.reference = l.reference AND c.source = l.source))
       OR EXISTS (SELECT 1 FROM statement_lines c WHERE c.statement_id = s.id AND NOT EXISTS (SELECT 1 FROM invoice_lines l WHERE l.id = c.line_id AND l.statement_id = s.id)))
     OR (s.status = 'open' AND EXISTS (SELECT 1 FROM statement_lines c WHERE c.statement_id = s.id))`,
  ).all();
  expect(copyDrift.results, 'an issued or paid statement holds an exact copy of its frozen lines; an open one none').toEqual([]);
  const statusMismatch = await env.DB.prepare(
    `SELECT l.id, l.status, s.status AS statement_status FROM invoice_lines l LEFT JOIN statements s ON s.id = l.statement_id
     WHERE (l.status = 'invoiced') <> (coalesce(s.status, '') IN ('issued', 'paid')) OR s.status = 'void' OR (l.statement_id IS NOT NULL AND l.status = 'draft')`,
  ).all();
  expect(statusMismatch.results, 'line status follows its statement').toEqual([]);
  const badAmounts = await env.DB.prepare('SELECT id FROM invoice_lines WHERE amount_cents <> quantity * unit_price_cents').all();
  expect(badAmounts.results, 'amount = quantity × unit price').toEqual([]);
  const duplicates = await env.DB.prepare('SELECT period, sequence FROM statements GROUP BY period, sequence HAVING count(*) > 1').all();
  expect(duplicates.results, 'statement numbers are unique').toEqual([]);
};

const linesOf = async (statementId: number) =>
  (await env.DB.prepare('SELECT * FROM invoice_lines WHERE statement_id = ?1 ORDER BY id').bind(statementId).all<LineRow>()).results;

beforeAll(async () => {
  ({ token } = await signedIn());
});

describe('generating statements', () => {
  it("bills the month's approved SLA and Azure lines only; its lines stay approved until it is issued", async () => {
    const sla = await addLine('gifs-sla', { period: '2033-01', quantity: 1, unitPriceCents: 250_000 });
    const azure = await addLine('gifs-azure', { period: '2033-01', quantity: 3, unitPriceCents: 10_001 });
    const draft = await addLine('gifs-azure', { period: '2033-01', unitPriceCents: 5, status: 'draft' });
    await addLine('gifs-azure', { period: '2033-02', unitPriceCents: 99 });
    await addLine('autofi', { period: '2033-01', unitPriceCents: 77 });

    const statement = await generated('2033-01');
    expect(statement).toMatchObject({ period: '2033-01', status: 'open', sequence: 1, number: 'GIFS-2033-01-1', totalCents: 280_003, lineCount: 2, issuedAt: null, dueOn: null });
    expect(statement.lines.map((l) => l.id).sort()).toEqual([sla.id, azure.id].sort());
    for (const { id } of statement.lines) expect(await getLine(id)).toMatchObject({ status: 'approved', statementId: statement.id, statementNumber: 'GIFS-2033-01-1' });
    expect(await getLine(draft.id)).toMatchObject({ status: 'draft', statementId: null });
    await expectInvariants();
  });

  it('bills lines added after a month was billed as a numbered supplementary statement, then has nothing left', async () => {
    const first = await openStatement('2033-05', 1);
    await moved(first.id, { status: 'issued', from: 'open' });
    const late = await addLine('gifs-azure', { period: '2033-05', quantity: 2, unitPriceCents: 1_500 });

    const supplementary = await generated('2033-05');
    expect(supplementary).toMatchObject({ period: '2033-05', sequence: 2, number: 'GIFS-2033-05-2', status: 'open', totalCents: 3_000, lineCount: 1 });
    expect(supplementary.lines.map((l) => l.id)).toEqual([late.id]);
    expect((await getStatement(first.id)).lines).toHaveLength(1);

    const nothing = await expectError(await generate('2033-05'), 400);
    expect(nothing.errors?.period).toEqual(['No approved lines to bill']);
    await expectInvariants();
  });

  it('refuses a month with nothing to bill, and bad periods, and stores nothing', async () => {
    await addLine('gifs-sla', { period: '2039-02', unitPriceCents: 1, status: 'draft' });
    for (const body of [{ period: '2039-01' }, { period: '2039-02' }, { period: '2039-1' }, {}, { period: '2039-01', companyId: 0 }]) {
      expect((await api('invoices/gifs/statements', { method: 'POST', token, json: body })).status).toBe(400);
    }
    expect(await env.DB.prepare("SELECT count(*) AS n FROM statements WHERE period LIKE '2039%'").first('n')).toBe(0);
  });

  it('bills one company at a time: lines of several companies need companyId', async () => {
    const [north, south] = [await createCompany('North', '1 North Road\nNorthtown'), await createCompany('South')];
    await addLine('gifs-sla', { period: '2033-06', companyId: north.id, unitPriceCents: 100 });
    await addLine('gifs-sla', { period: '2033-06', companyId: south.id, unitPriceCents: 200 });

    const mixed = await expectError(await generate('2033-06'), 400);
    expect(mixed.errors?.companyId).toEqual(['Choose the company to bill']);
    const forNorth = await generated('2033-06', { companyId: north.id });
    expect(forNorth).toMatchObject({ companyId: north.id, companyName: north.name, companyAddress: '1 North Road\nNorthtown', totalCents: 100, number: 'GIFS-2033-06-1' });
    const rest = await generated('2033-06');
    expect(rest).toMatchObject({ companyId: south.id, totalCents: 200, number: 'GIFS-2033-06-2' });
    await expectInvariants();
  });

  it('two generations of the same month at once bill each line once', async () => {
    for (let n = 0; n < 6; n++) await addLine('gifs-sla', { period: '2033-07', unitPriceCents: 10 + n });
    const answers = await Promise.all(Array.from({ length: 4 }, () => generate('2033-07')));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 400, 400, 400]);
    const billed = await env.DB.prepare("SELECT count(DISTINCT statement_id) AS statements, count(*) AS lines FROM invoice_lines WHERE period = '2033-07' AND statement_id IS NOT NULL").first();
    expect(billed).toEqual({ statements: 1, lines: 6 });
    await expectInvariants();
  });

  it('names the sender from the configuration and the due date from the payment terms', async () => {
    const statement = await openStatement('2033-08', 1);
    expect(statement.issuer).toEqual({ name: env.ORG_NAME, address: env.ORG_ADDRESS, paymentTermsDays: 30 });
    expect(env.ORG_NAME).toBeTruthy();
    const issued = await moved(statement.id, { status: 'issued', from: 'open' });
    const due = new Date(`${issued.issuedAt?.slice(0, 10)}T00:00:00Z`);
    due.setUTCDate(due.getUTCDate() + 30);
    expect(issued.dueOn).toBe(due.toISOString().slice(0, 10));
  });
});

describe('statement transitions', () => {
  // Every move from every status: only open → issued → paid and issued → void succeed.
  const LEGAL = new Set(['open>issued', 'issued>paid', 'issued>void']);
  const reach = async (status: string, period: string) => {
    const { id } = await openStatement(period, 1);
    if (status === 'open') return id;
    await moved(id, { status: 'issued' });
    if (status === 'paid') await moved(id, { status: 'paid' });
    if (status === 'void') await moved(id, { status: 'void', reason: 'Test' });
    return id;
  };
  const cases = ['open', 'issued', 'paid', 'void'].flatMap((from, i) => ['issued', 'paid', 'void'].map((to, j) => ({ from, to, period: `2034-${String(i * 3 + j + 1).padStart(2, '0')}` })));

  it.each(cases)('$from → $to', async ({ from, to, period }) => {
    const id = await reach(from, period);
    const before = await env.DB.prepare('SELECT * FROM statements WHERE id = ?1').bind(id).first();
    const linesBefore = await linesOf(id);
    const body = { status: to, from, ...(to === 'void' ? { reason: 'Wrong rate' } : {}) };
    const res = await move(id, body);
    if (LEGAL.has(`${from}>${to}`)) {
      expect(res.status).toBe(200);
      expect(await json<StatementDetail>(res)).toMatchObject({ status: to });
    } else {
      const problem = await expectConflict(res);
      const verb = to === 'void' ? 'voided' : `marked ${to}`;
      expect(problem.detail).toMatch(from === to ? new RegExp(` is already ${to}$`) : new RegExp(` is ${from} and cannot be ${verb}$`));
      expect(await env.DB.prepare('SELECT * FROM statements WHERE id = ?1').bind(id).first()).toEqual(before);
      expect(await linesOf(id)).toEqual(linesBefore);
    }
    await expectInvariants();
  });

  it('a `from` that is not the current status is a 409, so a repeated click cannot skip a step', async () => {
    const { id } = await openStatement('2035-01', 1);
    expect((await moved(id, { status: 'issued', from: 'open' })).status).toBe('issued');
    // The same click again: the statement is no longer open.
    const again = await expectConflict(await move(id, { status: 'issued', from: 'open' }));
    expect(again.detail).toBe('Statement GIFS-2035-01-1 is issued, not open; reload it to see what changed');
    // A stale page that still shows it open and asks for the next step is refused too.
    await expectConflict(await move(id, { status: 'paid', from: 'open' }));
    expect((await getStatement(id)).status).toBe('issued');
    expect((await moved(id, { status: 'paid', from: 'issued' })).status).toBe('paid');
    await expectConflict(await move(id, { status: 'paid', from: 'issued' }));
  });

  it('refuses unknown statuses, reopening, bad reasons and unknown fields with 400, unknown ids with 404', async () => {
    const { id } = await openStatement('2035-02', 1);
    const bad = [
      { status: 'open' },
      { status: 'invoiced' },
      { status: 'issued', from: 'draft' },
      { status: 'issued', reason: 'Not a void' },
      { status: 'issued', extra: 1 },
      { from: 'open' },
    ];
    for (const body of bad) await expectError(await move(id, body), 400);
    expect((await getStatement(id)).status).toBe('open');
    expect((await move(999_999, { status: 'issued' })).status).toBe(404);
    expect((await move(999_999, { status: 'issued', from: 'open' })).status).toBe(404);
  });

  it('issuing freezes the lines as invoiced; paying keeps them', async () => {
    const statement = await openStatement('2035-03', 3);
    const issued = await moved(statement.id, { status: 'issued', from: 'open' });
    expect(issued.issuedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    for (const { id } of issued.lines) expect(await getLine(id)).toMatchObject({ status: 'invoiced', statementStatus: 'issued' });
    const paid = await moved(statement.id, { status: 'paid', from: 'issued' });
    expect(paid).toMatchObject({ status: 'paid', issuedAt: issued.issuedAt, totalCents: 300, lines: issued.lines });
    for (const { id } of paid.lines) expect(await getLine(id)).toMatchObject({ status: 'invoiced', statementStatus: 'paid' });
    await expectInvariants();
  });
});

describe('voiding', () => {
  it('needs a reason, and only an issued statement can be voided', async () => {
    const { id } = await openStatement('2036-01', 1);
    const missing = await expectError(await move(id, { status: 'void', from: 'open' }), 400);
    expect(missing.errors?.reason).toEqual(['Give the reason for voiding']);
    await expectError(await move(id, { status: 'void', reason: '   ' }), 400);
    await expectError(await move(id, { status: 'void', reason: 'x'.repeat(501) }), 400);
    await expectConflict(await move(id, { status: 'void', reason: 'Too early' }));
    expect((await getStatement(id)).status).toBe('open');
  });

  it('returns its lines to approved with no statement, keeps the void statement visible, and lets them be billed again', async () => {
    const statement = await openStatement('2036-02', 2);
    await moved(statement.id, { status: 'issued', from: 'open' });
    const voided = await moved(statement.id, { status: 'void', from: 'issued', reason: 'Wrong SLA tier' });
    // The statement stays the document it was: its copy and total, only marked void.
    expect(voided).toMatchObject({ status: 'void', voidReason: 'Wrong SLA tier', voidedAt: expect.stringMatching(/^\d{4}-/), lineCount: 2, totalCents: 200, lines: statement.lines });
    for (const line of statement.lines) expect(await getLine(line.id)).toMatchObject({ status: 'approved', statementId: null, statementNumber: null });

    // The released lines are editable again, and the next generation bills them.
    expect((await patchLine(statement.lines[0]!.id, { quantity: 5 })).status).toBe(200);
    const rebilled = await generated('2036-02');
    expect(rebilled).toMatchObject({ number: 'GIFS-2036-02-2', totalCents: 600, lineCount: 2 });
    // Re-billing and issuing again leaves the void statement's copy as it was billed.
    await moved(rebilled.id, { status: 'issued', from: 'open' });
    expect(await getStatement(statement.id)).toMatchObject({ status: 'void', totalCents: 200, lineCount: 2, lines: statement.lines });
    expect((await getStatement(rebilled.id)).lines.map((l) => l.amountCents)).toEqual([500, 100]);
    const list = await json<Page<Statement>>(await api('invoices/gifs/statements?pageSize=200', { token }));
    expect(list.items.filter((s) => s.period === '2036-02').map((s) => [s.number, s.status])).toEqual([
      ['GIFS-2036-02-2', 'issued'],
      ['GIFS-2036-02-1', 'void'],
    ]);
    await expectInvariants();
  });
});

describe('lines on statements', () => {
  it('an open statement keeps its total equal to its lines when one changes', async () => {
    const statement = await openStatement('2037-01', 2);
    const [line] = statement.lines;
    expect(await json(await patchLine(line!.id, { quantity: 4, unitPriceCents: 250 }))).toMatchObject({ amountCents: 1_000, status: 'approved' });
    expect((await getStatement(statement.id)).totalCents).toBe(1_100);
    await expectInvariants();
  });

  it('a line on a statement cannot return to draft', async () => {
    const statement = await openStatement('2037-02', 1);
    const [line] = statement.lines;
    const problem = await expectConflict(await patchLine(line!.id, { status: 'draft', quantity: 9 }));
    expect(problem.detail).toBe('This line is on statement GIFS-2037-02-1; it cannot return to draft');
    expect(await getLine(line!.id)).toMatchObject({ status: 'approved', quantity: 1 });
    expect((await patchLine(line!.id, { status: 'approved' })).status).toBe(200);
  });

  it.each([
    ['issued', { quantity: 9 }],
    ['issued', { unitPriceCents: 1 }],
    ['issued', { description: 'Changed' }],
    ['issued', { reference: 'X' }],
    ['issued', { status: 'approved' }],
    ['issued', {}],
    ['paid', { quantity: 9 }],
    ['paid', { status: 'draft' }],
  ])('a line on a %s statement is frozen: %o → 409, nothing changes', async (status, change) => {
    const statement = await openStatement(`2037-${status === 'issued' ? '03' : '04'}`, 1);
    await moved(statement.id, { status: 'issued' });
    if (status === 'paid') await moved(statement.id, { status: 'paid' });
    const [line] = await linesOf(statement.id);
    const problem = await expectConflict(await patchLine(line!.id, change));
    expect(problem.detail).toBe(`This line is on statement ${statement.number}, which is ${status}; it can no longer change`);
    expect(await linesOf(statement.id)).toEqual([line]);
    expect((await getStatement(statement.id)).totalCents).toBe(statement.totalCents);
  });
});

describe('concurrency', () => {
  /**
   * 30 line edits race an issue and a paid transition, on real D1 in workerd. Each edit touches its
   * own line, so afterwards every line shows exactly the edits that got a 200 and none of those
   * that got a 409; nothing changes once the statement is issued; totals equal their lines.
   */
  // The issue goes out at a different moment of the stream of edits in each round (one edit a
  // millisecond, the paid move 8 ms after the issue), so the edits split into accepted and refused
  // at a different place each time.
  it.each([0, 6, 12, 18])('30 line edits racing issue and paid leave every invariant intact (issue after %i ms)', async (offset) => {
    const period = `2038-0${offset / 6 + 1}`;
    const statement = await openStatement(period, 30);
    const lines = await linesOf(statement.id);
    const edits = lines.map((line, i) => ({ id: line.id, quantity: 2 + i, unitPriceCents: 100 + offset }));
    const at = async (ms: number, call: () => Promise<Response>) => {
      await sleep(ms);
      return readJson<Record<string, unknown>>(await call());
    };
    const [issue, pay, ...answers] = await Promise.all([
      at(offset, () => move(statement.id, { status: 'issued', from: 'open' })),
      at(offset + 8, () => move(statement.id, { status: 'paid', from: 'issued' })),
      ...edits.map((edit, i) => at(i, () => patchLine(edit.id, { quantity: edit.quantity, unitPriceCents: edit.unitPriceCents }))),
    ]);
    if (!issue || !pay) throw new Error('the transitions did not answer');

    expect(issue.status).toBe(200);
    expect([200, 409]).toContain(pay.status);
    for (const answer of answers) expect([200, 409]).toContain(answer.status);
    const after = await getStatement(statement.id);
    expect(after.status).toBe(pay.status === 200 ? 'paid' : 'issued');

    // Every 200 edit is on the statement as sent; every 409 edit left its line as it was.
    const stored = new Map((await linesOf(statement.id)).map((line) => [line.id, line]));
    edits.forEach((edit, i) => {
      const line = stored.get(edit.id)!;
      const applied = answers[i]!.status === 200;
      expect([line.quantity, line.unit_price_cents], `line ${edit.id}`).toEqual(applied ? [edit.quantity, edit.unitPriceCents] : [1, 100]);
      expect(line.amount_cents).toBe(line.quantity * line.unit_price_cents);
      expect(line.status).toBe('invoiced');
      expect(line.updated_at <= (after.issuedAt as string), `line ${edit.id} changed after the issue`).toBe(true);
    });
    expect(after.totalCents).toBe([...stored.values()].reduce((sum, line) => sum + line.amount_cents, 0));
    expect(after.lineCount).toBe(30);
    // The statement as its issue answered it is the statement now.
    const issuedBody = issue.body as unknown as StatementDetail;
    expect(after.totalCents).toBe(issuedBody.totalCents);
    expect(after.lines.map((l) => [l.id, l.quantity, l.amountCents])).toEqual(issuedBody.lines.map((l) => [l.id, l.quantity, l.amountCents]));

    // And once issued, a second wave of edits all get 409 and change nothing.
    const frozen = await linesOf(statement.id);
    const second = await Promise.all(edits.map((edit) => patchLine(edit.id, { quantity: 999 })));
    expect(second.map((r) => r.status)).toEqual(edits.map(() => 409));
    expect(await linesOf(statement.id)).toEqual(frozen);
    await expectInvariants();
  });

  it('edits racing a void are refused while it is issued and land on the released lines after, never on a void statement', async () => {
    const statement = await openStatement('2038-09', 10);
    await moved(statement.id, { status: 'issued' });
    const lines = await linesOf(statement.id);
    const requests = lines.map((line) => patchLine(line.id, { quantity: 3 }));
    requests.splice(5, 0, move(statement.id, { status: 'void', from: 'issued', reason: 'Race' }));
    const answers = await Promise.all(requests);
    expect(answers[5]?.status).toBe(200);
    const after = await env.DB.prepare('SELECT * FROM invoice_lines WHERE id IN (SELECT value FROM json_each(?1)) ORDER BY id').bind(JSON.stringify(lines.map((l) => l.id))).all<LineRow>();
    answers.splice(5, 1);
    after.results.forEach((line, i) => {
      expect(line).toMatchObject({ statement_id: null, status: 'approved' });
      expect(line.quantity).toBe(answers[i]?.status === 200 ? 3 : 1);
    });
    await expectInvariants();
  });
});
