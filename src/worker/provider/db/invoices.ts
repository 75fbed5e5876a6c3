import { isBilled, type InvoiceSource, type LineChanges, type LineListQuery, type LinePayload } from '../../../shared/schemas/invoices';
import type { LinePage } from '../../../shared/types';
import { Conflict } from '../errors/domain';
import { pageOf, pageWindow } from './pagination';
import { auditCreated, auditUpdated, jsonColumn, type AuditContext } from './audit';
import { assertReferencesExist } from './references';
import { LINE_SELECT, rowsOf, toLine, written, type LineRow } from './rows';
import { NOW_SQL, assignments, columnOf, whereSql, type Bind, type Condition } from './sql';
import { VERSION_BUMP, unlessStale, updateRecord, versionMatches } from './versions';
import { lineCreatedEvent } from './webhook-events';

const filters = (source: InvoiceSource, query: Pick<LineListQuery, 'period' | 'status'>) =>
  whereSql([
    (bind) => `l.source = ${bind(source)}`,
    query.period && ((bind) => `l.period = ${bind(query.period)}`),
    query.status && ((bind) => `l.status = ${bind(query.status)}`),
  ]);

/** One ledger page plus the totals of every line the filters match, not just this page. */
export const listLines = async (db: D1Database, source: InvoiceSource, query: LineListQuery): Promise<LinePage> => {
  const { limit, offset } = pageWindow(query);
  const { where, params } = filters(source, query);
  const [rows, totals] = await db.batch([
    db.prepare(`${LINE_SELECT} ${where} ORDER BY l.period DESC, l.id LIMIT ${limit} OFFSET ${offset}`).bind(...params),
    db
      .prepare(`SELECT count(*) AS lines, coalesce(sum(quantity), 0) AS quantity, coalesce(sum(amount_cents), 0) AS amount FROM invoice_lines l ${where}`)
      .bind(...params),
  ]);
  // An aggregate without GROUP BY always answers one row.
  const [sums = { lines: 0, quantity: 0, amount: 0 }] = rowsOf<{ lines: number; quantity: number; amount: number }>(totals);
  return {
    ...pageOf(rowsOf<LineRow>(rows).map(toLine), sums.lines, query),
    totals: { lines: sums.lines, quantity: sums.quantity, amountCents: sums.amount },
  };
};

/** Every matching line, for the CSV export. */
export const allLines = async (db: D1Database, source: InvoiceSource, query: Pick<LineListQuery, 'period' | 'status'>) => {
  const { where, params } = filters(source, query);
  return (await db.prepare(`${LINE_SELECT} ${where} ORDER BY l.period DESC, l.id`).bind(...params).all<LineRow>()).results.map(toLine);
};

export const findLine = async (db: D1Database, id: number) => {
  const row = await db.prepare(`${LINE_SELECT} WHERE l.id = ?1`).bind(id).first<LineRow>();
  return row ? toLine(row) : null;
};

const COLUMNS = { description: 'description', quantity: 'quantity', unitPriceCents: 'unit_price_cents', reference: 'reference', status: 'status' };

export const LINE_AUDIT = {
  entity: 'invoice_line',
  table: 'invoice_lines',
  fields: {
    source: jsonColumn('source'),
    companyId: jsonColumn('company_id'),
    period: jsonColumn('period'),
    ...Object.fromEntries(Object.entries(COLUMNS).map(([field, column]) => [field, jsonColumn(column)])),
    amountCents: jsonColumn('amount_cents'),
  },
} as const;

export const insertLine = async (db: D1Database, source: InvoiceSource, line: LinePayload, audit: AuditContext) => {
  await assertReferencesExist(db, { companyId: line.companyId });
  const [inserted] = await db.batch<{ id: number }>([
    db
      .prepare(
        `INSERT INTO invoice_lines (source, company_id, period, description, quantity, unit_price_cents, amount_cents, reference, status)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?5 * ?6, ?7, ?8) RETURNING id`,
      )
      .bind(source, line.companyId ?? null, line.period, line.description, line.quantity, line.unitPriceCents, line.reference ?? '', line.status ?? 'draft'),
    auditCreated(db, audit, LINE_AUDIT),
    // Right after the entry, which names the new line (docs/api.md#webhook-events).
    lineCreatedEvent(db, audit),
  ]);
  return written(await findLine(db, written(inserted?.results[0], 'invoice line').id), 'invoice line');
};

/**
 * The rules of docs/architecture.md#billing-lines-and-statements for a line edit: a line on an
 * issued or paid statement is frozen, and a line on a statement cannot return to draft. One
 * condition for the UPDATE (over invoice_lines) and its audit entry (over the row as r): the
 * entry exists exactly when the edit does.
 */
export const lineEditRules =
  (changes: Pick<LineChanges, 'status'>): Condition =>
  (_, row) => {
    const statement = columnOf(row, 'statement_id');
    return [
      `(${statement} IS NULL OR (SELECT s.status FROM statements s WHERE s.id = ${statement}) = 'open')`,
      ...(changes.status === 'draft' ? [`${statement} IS NULL`] : []),
    ].join(' AND ');
  };
export const STATEMENT_SUM = '(SELECT coalesce(sum(amount_cents), 0) FROM invoice_lines WHERE statement_id = statements.id)';

/**
 * The guarded batch of a line edit: the line with its amount recomputed from the new quantity and
 * price in the same UPDATE, then the total of the open statement holding it. Both carry the rules
 * in their WHERE, so an edit racing a statement's issue either lands before it or changes nothing.
 * With `version` (If-Match) the line must also still be at that version.
 */
const lineEdit = (db: D1Database, id: number, changes: LineChanges, audit: AuditContext, version: number | undefined) => {
  const where = [versionMatches(version), lineEditRules(changes)];
  // The recomputed amount follows from the quantity and price the audit entry records.
  const amount = (bind: Bind) =>
    `amount_cents = coalesce(${bind(changes.quantity ?? null)}, quantity) * coalesce(${bind(changes.unitPriceCents ?? null)}, unit_price_cents)`;
  return [
    auditUpdated(db, audit, { ...LINE_AUDIT, id, values: changes, where }),
    updateRecord(db, { table: 'invoice_lines', id, set: assignments(changes, COLUMNS), computed: [amount], where, returning: 'id' }),
    db
      .prepare(
        `UPDATE statements SET total_cents = ${STATEMENT_SUM}, updated_at = ${NOW_SQL}, ${VERSION_BUMP}
         WHERE id = (SELECT statement_id FROM invoice_lines WHERE id = ?1) AND status = 'open' AND total_cents <> ${STATEMENT_SUM}`,
      )
      .bind(id),
  ];
};

/** Why a line edit changed nothing, read after the write: 404 (null), a stale version, or a 409 naming the rule. */
const refusedEdit = async (db: D1Database, id: number, changes: LineChanges, version: number | undefined) => {
  const line = unlessStale(await findLine(db, id), version);
  if (!line) return null;
  if (isBilled(line.statementStatus)) {
    throw new Conflict(`This line is on statement ${line.statementNumber}, which is ${line.statementStatus}; it can no longer change`);
  }
  if (changes.status === 'draft' && line.statementId !== null) {
    throw new Conflict(`This line is on statement ${line.statementNumber}; it cannot return to draft`);
  }
  throw new Conflict('The line changed meanwhile; reload it and try again');
};

/** Edits a line, keeping its amount and its open statement's total exact (docs/architecture.md#billing-lines-and-statements). */
export const updateLine = async (db: D1Database, id: number, changes: LineChanges, audit: AuditContext, version?: number) => {
  const [, edited] = await db.batch(lineEdit(db, id, changes, audit, version));
  if (!edited?.results.length) return refusedEdit(db, id, changes, version);
  return findLine(db, id);
};
