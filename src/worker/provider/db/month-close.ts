import { utcDay } from '../../../shared/dates';
import { statementNumber, type ClosingLedger } from '../../../shared/schemas/invoices';
import type { StatementDetail, StatementIssuer } from '../../../shared/types';
import { Conflict, Invalid } from '../errors/domain';
import type { AuditContext } from './audit';
import { PAYMENT_SELECT } from './payments';
import {
  STATEMENT_SELECT,
  rowsOf,
  toPayment,
  toStatement,
  toStatementLine,
  type PaymentRow,
  type StatementLineRow,
  type StatementRow,
} from './rows';
import { NOW_SQL } from './sql';
import { VERSION_BUMP } from './versions';

// Every statement here binds ?1 the ledger (which is also its lines' source) and ?2 the month.
// The month's approved lines on no invoice yet.
const UNBILLED = "source = ?1 AND period = ?2 AND status = 'approved' AND statement_id IS NULL";
/**
 * An invoice of the month that is not void holding company `company` (SQL): the company's own,
 * or one made before invoices were per company (no company), which holds the whole month.
 */
const holding = (company: string) =>
  `SELECT 1 FROM statements h WHERE h.ledger = ?1 AND h.period = ?2 AND h.status <> 'void' AND (h.company_id IS NULL OR h.company_id = ${company})`;
// The lines a close bills: the unbilled ones of companies whose month has no invoice yet.
const BILLABLE = `${UNBILLED} AND NOT EXISTS (${holding('invoice_lines.company_id')})`;
// Every invoice is billed to a company, so one approved line without one holds the whole close back.
const ALL_HAVE_COMPANIES = `NOT EXISTS (SELECT 1 FROM invoice_lines WHERE ${UNBILLED} AND company_id IS NULL)`;
/**
 * The invoices this close has just made (`s` the statement): issued, of the month, and no copy
 * yet. Every earlier invoice got its copy in the batch that made it, so these are exactly the
 * batch's own, and a refused close, which made none, changes nothing after its INSERT.
 */
const fresh = (s: string) =>
  `${s}.ledger = ?1 AND ${s}.period = ?2 AND ${s}.status = 'issued' AND NOT EXISTS (SELECT 1 FROM statement_lines c WHERE c.statement_id = ${s}.id)`;
// A line's invoice in this close: the fresh one of its company (at most one, index statements_ledger_month_company_closed).
const LINE_INVOICE = `(SELECT s.id FROM statements s WHERE s.company_id = invoice_lines.company_id AND ${fresh('s')})`;

/**
 * The guarded batch of a month close (README "Billing rules"): one invoice per company with
 * billable lines, issued at once and numbered after the month's earlier ones in the order of the
 * companies' names, only while no approved line of the month lacks a company; their entries; the
 * lines tied to their company's invoice as invoiced; the totals; then the copies. A line edit
 * racing the close either lands before it (and is billed as edited) or finds the line frozen.
 */
const close = (db: D1Database, ledger: ClosingLedger, period: string, { actorId, requestId }: AuditContext) => [
  db
    .prepare(
      `INSERT INTO statements (ledger, period, company_id, sequence, status, issued_at)
       SELECT ?1, ?2, b.company_id, base.n + row_number() OVER (ORDER BY coalesce(c.name, ''), b.company_id), 'issued', ${NOW_SQL}
       FROM (SELECT DISTINCT company_id FROM invoice_lines WHERE ${BILLABLE}) b
         LEFT JOIN companies c ON c.id = b.company_id
         JOIN (SELECT coalesce(max(sequence), 0) AS n FROM statements WHERE ledger = ?1 AND period = ?2) base
       WHERE ${ALL_HAVE_COMPANIES}
       ORDER BY coalesce(c.name, ''), b.company_id
       RETURNING id`,
    )
    .bind(ledger, period),
  // Each invoice's create entry, as auditCreated writes one for a single row (docs/architecture.md#roles-and-the-audit-log).
  db
    .prepare(
      `INSERT INTO audit_log (actor_id, action, entity, entity_id, changes, request_id)
       SELECT ?3, 'create', 'statement', r.id, json_object('ledger', json_array(NULL, r.ledger), 'period', json_array(NULL, r.period),
         'sequence', json_array(NULL, r.sequence), 'companyId', json_array(NULL, r.company_id), 'status', json_array(NULL, r.status)), ?4
       FROM statements r WHERE ${fresh('r')} ORDER BY r.sequence`,
    )
    .bind(ledger, period, actorId, requestId),
  db
    .prepare(
      `UPDATE invoice_lines SET statement_id = ${LINE_INVOICE}, status = 'invoiced',
         updated_at = (SELECT issued_at FROM statements WHERE id = ${LINE_INVOICE}), ${VERSION_BUMP}
       WHERE ${UNBILLED} AND ${LINE_INVOICE} IS NOT NULL`,
    )
    .bind(ledger, period),
  // Part of making the invoices, so they stay at their first version; the copy that follows holds the same lines.
  db
    .prepare(
      `UPDATE statements SET total_cents = (SELECT coalesce(sum(amount_cents), 0) FROM invoice_lines WHERE statement_id = statements.id)
       WHERE ${fresh('statements')}`,
    )
    .bind(ledger, period),
  db
    .prepare(
      `INSERT INTO statement_lines (statement_id, line_id, company_id, source, description, quantity, unit_price_cents, amount_cents, reference)
       SELECT l.statement_id, l.id, l.company_id, l.source, l.description, l.quantity, l.unit_price_cents, l.amount_cents, l.reference
       FROM invoice_lines l JOIN statements s ON s.id = l.statement_id WHERE ${fresh('s')} ORDER BY l.statement_id, l.id`,
    )
    .bind(ledger, period),
];

const lineNames = (rows: { id: number; description: string }[]) =>
  rows.map((row) => `${row.id} (${row.description.split('\n')[0]?.slice(0, 40) ?? ''})`).join(', ');

/**
 * Why a close made nothing, read after the write: approved lines without a company (409 naming
 * them), the month already closed for the companies of its approved lines or, with none waiting,
 * at all (409 naming those invoices), or nothing approved (400).
 */
const refusedClose = async (db: D1Database, ledger: ClosingLedger, period: string) => {
  const [orphans, count, holders] = await db.batch([
    db.prepare(`SELECT id, description FROM invoice_lines WHERE ${UNBILLED} AND company_id IS NULL ORDER BY id LIMIT 10`).bind(ledger, period),
    db.prepare(`SELECT count(*) AS n, count(company_id) AS companies FROM invoice_lines WHERE ${UNBILLED}`).bind(ledger, period),
    // The invoices that hold the waiting lines back, or while none wait, every invoice of the month.
    db
      .prepare(
        `SELECT h.sequence FROM statements h WHERE h.ledger = ?1 AND h.period = ?2 AND h.status <> 'void'
           AND (NOT EXISTS (SELECT 1 FROM invoice_lines WHERE ${UNBILLED})
             OR EXISTS (SELECT 1 FROM invoice_lines WHERE ${UNBILLED} AND (h.company_id IS NULL OR h.company_id = invoice_lines.company_id)))
         ORDER BY h.sequence LIMIT 10`,
      )
      .bind(ledger, period),
  ]);
  const waiting = rowsOf<{ n: number; companies: number }>(count)[0] ?? { n: 0, companies: 0 };
  const lost = rowsOf<{ id: number; description: string }>(orphans);
  if (lost.length) {
    const n = waiting.n - waiting.companies;
    const ids = lost.map((row) => row.id);
    return new Conflict(
      `Nothing was closed: ${n} approved ${n === 1 ? 'line' : 'lines'} of ${period} ${n === 1 ? 'has' : 'have'} no company: ${lineNames(lost)}${n > lost.length ? ` and ${n - lost.length} more` : ''}. Every invoice is billed to a company; return ${n === 1 ? 'it' : 'them'} to draft and enter ${n === 1 ? 'it' : 'them'} again with ${n === 1 ? 'its' : 'their'} company`,
      { lineIds: [`No company: ${ids.join(', ')}${n > ids.length ? ', …' : ''}`] },
    );
  }
  const numbers = rowsOf<{ sequence: number }>(holders).map((row) => statementNumber(period, row.sequence, ledger));
  if (numbers.length) {
    return new Conflict(
      `${period} is already closed: ${numbers.length === 1 ? 'invoice' : 'invoices'} ${numbers.join(', ')}; void a company's invoice to bill its month again`,
    );
  }
  if (!waiting.n) return new Invalid(`Nothing to invoice for ${period}: no approved lines are waiting`, { period: ['No approved lines to invoice'] });
  return new Conflict(`The lines of ${period} changed while it was being closed; try again`);
};

// The copy's lines with the company each names (a month invoice is never open, so it always has one).
const COPY_LINES_SQL = `SELECT c.statement_id, c.line_id AS id, c.company_id, co.name AS company_name, c.source, c.description, c.quantity, c.unit_price_cents, c.amount_cents, c.reference
  FROM statement_lines c LEFT JOIN companies co ON co.id = c.company_id`;

const byStatement = <T extends { statement_id: number }>(rows: T[]) => {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const group = groups.get(row.statement_id);
    if (group) group.push(row);
    else groups.set(row.statement_id, [row]);
  }
  return groups;
};

/** The month invoices `which` picks (SQL over statements `s`, binding ?1 and ?2) with their copies and payments, in three reads of one batch. */
const readInvoices = async (db: D1Database, which: string, binds: unknown[], issuer: StatementIssuer): Promise<StatementDetail[]> => {
  const ids = `SELECT s.id FROM statements s WHERE ${which}`;
  const [statements, lines, payments] = await db.batch([
    db.prepare(`${STATEMENT_SELECT} WHERE ${which} ORDER BY s.sequence`).bind(...binds),
    db.prepare(`${COPY_LINES_SQL} WHERE c.statement_id IN (${ids}) ORDER BY c.statement_id, c.source, c.line_id`).bind(...binds),
    db.prepare(`${PAYMENT_SELECT} WHERE statement_id IN (${ids}) ORDER BY paid_on, id`).bind(...binds),
  ]);
  const clock = { paymentTermsDays: issuer.paymentTermsDays, today: utcDay() };
  const linesOf = byStatement(rowsOf<StatementLineRow & { statement_id: number }>(lines));
  const paymentsOf = byStatement(rowsOf<PaymentRow>(payments));
  return rowsOf<StatementRow>(statements).map((row) => ({
    ...toStatement(row, clock),
    companyAddress: row.company_address,
    issuer,
    lines: (linesOf.get(row.id) ?? []).map(toStatementLine),
    payments: (paymentsOf.get(row.id) ?? []).map(toPayment),
  }));
};

/** Closes a month of the Autofi or 3D Tracking ledger into one issued invoice per company (README "Billing rules"). */
export const closeMonth = async (db: D1Database, ledger: ClosingLedger, period: string, issuer: StatementIssuer, audit: AuditContext) => {
  const [inserted] = await db.batch<{ id: number }>(close(db, ledger, period, audit));
  const ids = (inserted?.results ?? []).map((row) => row.id);
  if (!ids.length) throw await refusedClose(db, ledger, period);
  return readInvoices(db, 's.id IN (SELECT value FROM json_each(?1))', [JSON.stringify(ids)], issuer);
};

/** The month's invoices that are not void, in number order; none while the month is open. */
export const listMonthInvoices = (db: D1Database, ledger: ClosingLedger, period: string, issuer: StatementIssuer) =>
  readInvoices(db, "s.ledger = ?1 AND s.period = ?2 AND s.status <> 'void'", [ledger, period], issuer);
