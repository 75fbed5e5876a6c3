import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { InvoiceLine, StatementDetail } from '../../src/shared/types';
import { auditUpdated } from '../../src/worker/provider/db/audit';
import { LINE_AUDIT, lineEditRules } from '../../src/worker/provider/db/invoices';
import { columnOf, whereSql, type Condition } from '../../src/worker/provider/db/sql';
import { updateRecord, updateSql, versionMatches } from '../../src/worker/provider/db/versions';
import { api, readJson, signedIn } from './support';

/**
 * docs/decisions.md "Layers, held by lint": a rule about data is one Condition, and the UPDATE's
 * WHERE and its audit entry's WHERE are both rendered from it. Proven on the real D1: the write
 * and its entry run in one batch, as the provider runs them, with the rule allowing and refusing,
 * and the entry is there exactly when the row changed.
 */

let billing: string;
let requests = 0;

// Periods of this file's own, so no other test file's lines land on these statements.
let month = 0;
const nextPeriod = () => `2081-${String((month += 1)).padStart(2, '0')}`;

/** An approved GIFS line on an open statement of its own. */
const lineOnOpenStatement = async () => {
  const period = nextPeriod();
  const created = await api('invoices/gifs-sla/lines', { method: 'POST', token: billing, json: { period, description: 'Rules', quantity: 1, unitPriceCents: 100, status: 'approved' } });
  const line = (await readJson<InvoiceLine>(created)).body;
  const statement = await readJson<StatementDetail>(await api('invoices/gifs/statements', { method: 'POST', token: billing, json: { period } }));
  expect(statement.status, statement.text).toBe(201);
  return line;
};

const stored = async (id: number) =>
  env.DB.prepare('SELECT description, version FROM invoice_lines WHERE id = ?1').bind(id).first<{ description: string; version: number }>();

/**
 * A description edit of line `id` under `where`, batched as the provider batches a line edit: its
 * entry first, then the UPDATE, both given the same condition objects. Answers whether the row
 * changed and how many entries the edit left.
 */
const edit = async (id: number, where: Condition[], description: string) => {
  const requestId = `write-rules-${(requests += 1)}`;
  const [, update] = await env.DB.batch([
    auditUpdated(env.DB, { actorId: null, requestId }, { ...LINE_AUDIT, id, values: { description }, where }),
    updateRecord(env.DB, { table: 'invoice_lines', id, set: [{ column: 'description', value: description }], where }),
  ]);
  const entries = await env.DB.prepare('SELECT count(*) AS n FROM audit_log WHERE request_id = ?1 AND entity_id = ?2').bind(requestId, id).first<number>('n');
  return { changed: update?.meta.changes ?? 0, entries };
};

/** Whether the rule, rendered unqualified over the table as a list's filter is, holds for the line. */
const holds = async (id: number, where: Condition[]) => {
  const { where: sql, params } = whereSql([(bind) => `id = ${bind(id)}`, ...where]);
  return (await env.DB.prepare(`SELECT count(*) AS n FROM invoice_lines ${sql}`).bind(...params).first<number>('n')) === 1;
};

beforeAll(async () => {
  ({ token: billing } = await signedIn('billing'));
});

describe('one condition, rendered into the UPDATE and its audit entry', () => {
  it('renders over the row as the audit entry names it, as the table, and unqualified, each with its own numbering', () => {
    const rule = lineEditRules({ status: 'draft' });
    const update = updateSql({ table: 'invoice_lines', id: 7, set: [{ column: 'description', value: 'x' }], where: [versionMatches(3), rule] });
    expect(update.sql).toContain('invoice_lines.statement_id IS NULL');
    expect(update.sql).toContain('invoice_lines.version = coalesce(?3, invoice_lines.version)');
    expect(update.params).toEqual([7, 'x', 3]);
    expect(whereSql([rule]).where).toContain('(statement_id IS NULL OR');
  });

  it('the frozen-line rule: changing it in the condition changes the write and its entry together', async () => {
    const line = await lineOnOpenStatement();
    // The line's statement is open, so the provider's rule lets it change …
    expect(await holds(line.id, [lineEditRules({})])).toBe(true);
    expect(await edit(line.id, [lineEditRules({})], 'Allowed')).toEqual({ changed: 1, entries: 1 });
    // … but not return to draft while on a statement.
    expect(await holds(line.id, [lineEditRules({ status: 'draft' })])).toBe(false);
    expect(await edit(line.id, [lineEditRules({ status: 'draft' })], 'Refused')).toEqual({ changed: 0, entries: 0 });
    expect((await stored(line.id))?.description).toBe('Allowed');

    // A rule of this test's own, changed in its one object: which statement statuses freeze a line.
    const frozen = { statuses: ['issued', 'paid'] };
    const notFrozen: Condition = (bind, row) =>
      `coalesce((SELECT s.status FROM statements s WHERE s.id = ${columnOf(row, 'statement_id')}), '') NOT IN (SELECT value FROM json_each(${bind(JSON.stringify(frozen.statuses))}))`;
    expect(await edit(line.id, [notFrozen], 'Open is not frozen')).toEqual({ changed: 1, entries: 1 });
    frozen.statuses = ['open'];
    expect(await holds(line.id, [notFrozen])).toBe(false);
    expect(await edit(line.id, [notFrozen], 'Open is frozen now')).toEqual({ changed: 0, entries: 0 });
    expect((await stored(line.id))?.description).toBe('Open is not frozen');
  });

  it('the version: the expected version changed in the condition moves the write and its entry together', async () => {
    const line = await lineOnOpenStatement();
    const before = (await stored(line.id))?.version ?? 0;
    expect(await edit(line.id, [versionMatches(before + 1)], 'Stale')).toEqual({ changed: 0, entries: 0 });
    expect(await edit(line.id, [versionMatches(before)], 'Current')).toEqual({ changed: 1, entries: 1 });
    expect(await stored(line.id)).toEqual({ description: 'Current', version: before + 1 });
    // Without an expected version (no If-Match) any version matches.
    expect(await edit(line.id, [versionMatches(undefined)], 'Any')).toEqual({ changed: 1, entries: 1 });
  });
});
