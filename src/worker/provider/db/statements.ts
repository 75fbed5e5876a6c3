import type { StatementStatus } from '../../../shared/schemas/invoices';
import type { ListQuery } from '../../../shared/schemas/list';
import type { Statement, StatementDetail } from '../../../shared/types';
import { badRequest, conflict } from '../http/errors';
import { pageOf, pageWindow } from '../http/pagination';
import { auditCreated, auditUpdated, jsonColumn, type AuditContext } from './audit';
import { toLine } from './invoices';
import { NOW_SQL, uniqueOr409 } from './sql';

type Row = Record<string, unknown>;

// Statements bill the GIFS contract: its SLA and Azure lines of one month.
export const STATEMENT_SOURCES = ['gifs-sla', 'gifs-azure'] as const;
const SOURCES_SQL = STATEMENT_SOURCES.map((s) => `'${s}'`).join(', ');

const SELECT = `SELECT s.*, c.name AS company_name, (SELECT count(*) FROM invoice_lines WHERE statement_id = s.id) AS line_count
  FROM statements s LEFT JOIN companies c ON c.id = s.company_id`;

const AUDIT = {
  entity: 'statement',
  table: 'statements',
  fields: {
    period: jsonColumn('period'),
    companyId: jsonColumn('company_id'),
    status: jsonColumn('status'),
    totalCents: jsonColumn('total_cents'),
  },
} as const;

const toStatement = (row: Row): Statement => ({
  id: row.id as number,
  companyId: (row.company_id as number | null) ?? null,
  companyName: (row.company_name as string | null) ?? null,
  period: row.period as string,
  status: row.status as Statement['status'],
  issuedAt: (row.issued_at as string | null) ?? null,
  totalCents: row.total_cents as number,
  lineCount: row.line_count as number,
  createdAt: row.created_at as string,
  updatedAt: row.updated_at as string,
});

export const listStatements = async (db: D1Database, query: ListQuery) => {
  const { limit, offset } = pageWindow(query);
  const [rows, count] = await db.batch<Row>([
    db.prepare(`${SELECT} ORDER BY s.period DESC LIMIT ${limit} OFFSET ${offset}`),
    db.prepare('SELECT count(*) AS total FROM statements'),
  ]);
  return pageOf(rows.results.map(toStatement), (count.results[0]?.total as number) ?? 0, query);
};

export const findStatement = async (db: D1Database, id: number): Promise<StatementDetail | null> => {
  const [statement, lines] = await db.batch<Row>([
    db.prepare(`${SELECT} WHERE s.id = ?1`).bind(id),
    db
      .prepare(
        `SELECT l.*, c.name AS company_name, s.status AS statement_status FROM invoice_lines l
         LEFT JOIN companies c ON c.id = l.company_id JOIN statements s ON s.id = l.statement_id
         WHERE l.statement_id = ?1 ORDER BY l.source, l.id`,
      )
      .bind(id),
  ]);
  const row = statement?.results[0];
  return row ? { ...toStatement(row), lines: (lines?.results ?? []).map(toLine) } : null;
};

/**
 * Generates the statement for a month in one transaction: the statement row, its lines marked
 * invoiced and tied to it, and its total as the sum of exactly those lines. A month has at most
 * one statement (409 the second time); a month with no lines has nothing to bill (400).
 */
export const generateStatement = async (db: D1Database, period: string, audit: AuditContext) => {
  const lines = await db
    .prepare(`SELECT count(*) AS n, count(DISTINCT company_id) AS companies, min(company_id) AS company FROM invoice_lines WHERE source IN (${SOURCES_SQL}) AND period = ?1 AND statement_id IS NULL`)
    .bind(period)
    .first<{ n: number; companies: number; company: number | null }>();
  if (!lines?.n) {
    const existing = await db.prepare('SELECT 1 FROM statements WHERE period = ?1').bind(period).first();
    if (existing) throw conflict(`A statement for ${period} already exists`);
    throw badRequest(`There are no GIFS SLA or Azure lines for ${period}`, { period: ['No lines to bill'] });
  }
  const companyId = lines.companies === 1 ? lines.company : null;
  await uniqueOr409(
    db.batch([
      db.prepare('INSERT INTO statements (period, company_id) VALUES (?1, ?2)').bind(period, companyId),
      db
        .prepare(
          `UPDATE invoice_lines SET statement_id = (SELECT id FROM statements WHERE period = ?1), status = 'invoiced', updated_at = ${NOW_SQL}
           WHERE source IN (${SOURCES_SQL}) AND period = ?1 AND statement_id IS NULL`,
        )
        .bind(period),
      db
        .prepare('UPDATE statements SET total_cents = (SELECT coalesce(sum(amount_cents), 0) FROM invoice_lines WHERE statement_id = statements.id) WHERE period = ?1')
        .bind(period),
      // The statement as created, total included; updates leave last_insert_rowid() on it.
      auditCreated(db, audit, AUDIT),
    ]),
    `A statement for ${period} already exists`,
  );
  const id = await db.prepare('SELECT id FROM statements WHERE period = ?1').bind(period).first<number>('id');
  return findStatement(db, id as number) as Promise<StatementDetail>;
};

const NEXT: Partial<Record<StatementStatus, StatementStatus>> = { open: 'issued', issued: 'paid' };
// The status a statement must still hold for each step, checked by the UPDATE and its audit entry alike.
const STEP_FROM = { issued: "status = 'open'", paid: "status = 'issued'" } as const;

/** Moves a statement on: open → issued (stamping issued_at) → paid, one step at a time. */
export const advanceStatement = async (db: D1Database, id: number, status: 'issued' | 'paid', audit: AuditContext) => {
  const current = await db.prepare('SELECT status FROM statements WHERE id = ?1').bind(id).first<{ status: StatementStatus }>();
  if (!current) return null;
  if (NEXT[current.status] !== status) throw conflict(`A ${current.status} statement cannot be marked ${status}`);
  const stamp = status === 'issued' ? `, issued_at = ${NOW_SQL}` : '';
  const [, result] = await db.batch([
    auditUpdated(db, audit, { ...AUDIT, id, values: { status }, guard: STEP_FROM[status] }),
    db.prepare(`UPDATE statements SET status = ?2${stamp}, updated_at = ${NOW_SQL} WHERE id = ?1 AND ${STEP_FROM[status]}`).bind(id, status),
  ]);
  if (!result?.meta.changes) throw conflict('The statement changed meanwhile; reload and try again');
  return findStatement(db, id);
};
