import type { InvoiceSource, LineChanges, LineListQuery, LinePayload } from '../../../shared/schemas/invoices';
import type { InvoiceLine, LinePage } from '../../../shared/types';
import { conflict } from '../http/errors';
import { pageOf, pageWindow } from '../http/pagination';
import { auditCreated, auditUpdated, jsonColumn, type AuditContext } from './audit';
import { assertReferencesExist } from './references';
import { NOW_SQL, assignments, setSql, valuesOf } from './sql';

type Row = Record<string, unknown>;

const SELECT = `SELECT l.*, c.name AS company_name, s.status AS statement_status FROM invoice_lines l
  LEFT JOIN companies c ON c.id = l.company_id LEFT JOIN statements s ON s.id = l.statement_id`;

export const toLine = (row: Row): InvoiceLine => ({
  id: row.id as number,
  source: row.source as InvoiceLine['source'],
  companyId: (row.company_id as number | null) ?? null,
  companyName: (row.company_name as string | null) ?? null,
  period: row.period as string,
  description: row.description as string,
  quantity: row.quantity as number,
  unitPriceCents: row.unit_price_cents as number,
  amountCents: row.amount_cents as number,
  reference: row.reference as string,
  status: row.status as InvoiceLine['status'],
  statementId: (row.statement_id as number | null) ?? null,
  statementStatus: (row.statement_status as InvoiceLine['statementStatus']) ?? null,
  createdAt: row.created_at as string,
  updatedAt: row.updated_at as string,
});

const filters = (source: InvoiceSource, query: Pick<LineListQuery, 'period' | 'status'>) => {
  const clauses = ['l.source = ?1'];
  const params: unknown[] = [source];
  if (query.period) clauses.push(`l.period = ?${params.push(query.period)}`);
  if (query.status) clauses.push(`l.status = ?${params.push(query.status)}`);
  return { where: `WHERE ${clauses.join(' AND ')}`, params };
};

/** One ledger page plus the totals of every line the filters match, not just this page. */
export const listLines = async (db: D1Database, source: InvoiceSource, query: LineListQuery): Promise<LinePage> => {
  const { limit, offset } = pageWindow(query);
  const { where, params } = filters(source, query);
  const [rows, totals] = await db.batch<Row>([
    db.prepare(`${SELECT} ${where} ORDER BY l.period DESC, l.id LIMIT ${limit} OFFSET ${offset}`).bind(...params),
    db
      .prepare(`SELECT count(*) AS lines, coalesce(sum(quantity), 0) AS quantity, coalesce(sum(amount_cents), 0) AS amount FROM invoice_lines l ${where}`)
      .bind(...params),
  ]);
  const sums = totals.results[0] ?? {};
  return {
    ...pageOf(rows.results.map(toLine), sums.lines as number, query),
    totals: { lines: sums.lines as number, quantity: sums.quantity as number, amountCents: sums.amount as number },
  };
};

/** Every matching line, for the CSV export. */
export const allLines = async (db: D1Database, source: InvoiceSource, query: Pick<LineListQuery, 'period' | 'status'>) => {
  const { where, params } = filters(source, query);
  return (await db.prepare(`${SELECT} ${where} ORDER BY l.period DESC, l.id`).bind(...params).all<Row>()).results.map(toLine);
};

export const findLine = async (db: D1Database, id: number) => {
  const row = await db.prepare(`${SELECT} WHERE l.id = ?1`).bind(id).first<Row>();
  return row ? toLine(row) : null;
};

const COLUMNS = { description: 'description', quantity: 'quantity', unitPriceCents: 'unit_price_cents', reference: 'reference', status: 'status' };

const AUDIT = {
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
    auditCreated(db, audit, AUDIT),
  ]);
  return findLine(db, inserted?.results[0]?.id as number) as Promise<InvoiceLine>;
};

/**
 * Edits a line and recomputes its amount in integer cents; an open statement holding the line
 * gets its total recomputed in the same transaction. Lines on an issued or paid statement are
 * closed to edits.
 */
export const updateLine = async (db: D1Database, id: number, changes: LineChanges, audit: AuditContext) => {
  const current = await db
    .prepare('SELECT l.statement_id, s.status AS statement_status FROM invoice_lines l LEFT JOIN statements s ON s.id = l.statement_id WHERE l.id = ?1')
    .bind(id)
    .first<{ statement_id: number | null; statement_status: string | null }>();
  if (!current) return null;
  if (current.statement_status && current.statement_status !== 'open') {
    throw conflict(`This line is on a statement that is already ${current.statement_status}`);
  }
  const list = assignments(changes, COLUMNS);
  const set = [setSql(list, 2), `updated_at = ${NOW_SQL}`].filter(Boolean).join(', ');
  await db.batch([
    // The recomputed amount follows from the quantity and price the entry records.
    auditUpdated(db, audit, { ...AUDIT, id, values: changes }),
    db.prepare(`UPDATE invoice_lines SET ${set} WHERE id = ?1`).bind(id, ...valuesOf(list)),
    db.prepare('UPDATE invoice_lines SET amount_cents = quantity * unit_price_cents WHERE id = ?1').bind(id),
    db
      .prepare(
        `UPDATE statements SET total_cents = (SELECT coalesce(sum(amount_cents), 0) FROM invoice_lines WHERE statement_id = statements.id), updated_at = ${NOW_SQL}
         WHERE id = (SELECT statement_id FROM invoice_lines WHERE id = ?1)`,
      )
      .bind(id),
  ]);
  return findLine(db, id);
};
