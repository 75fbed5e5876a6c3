import { AGING_BUCKETS, type AgingBucket, type PaymentPayload } from '../../../shared/schemas/payments';
import { utcDay } from '../../../shared/dates';
import { moneyInMessage } from '../../../shared/money';
import type { Ledger, StatementStatus } from '../../../shared/schemas/invoices';
import type { AgingSummary, StatementIssuer } from '../../../shared/types';
import { Conflict } from '../errors/domain';
import { auditCreated, auditDeleted, auditUpdated, jsonColumn, type AuditContext } from './audit';
import { rowsOf } from './rows';
import { columnOf, type Condition } from './sql';
import { STATEMENT_AUDIT } from './statement-audit';
import { updateRecord } from './versions';
import { statementMovedEvent } from './webhook-events';

/** The payments recorded against statement `s`. */
export const PAID_SUM = '(SELECT coalesce(sum(p.amount_cents), 0) FROM statement_payments p WHERE p.statement_id = s.id)';

export const PAYMENT_SELECT = 'SELECT id, statement_id, paid_on, amount_cents, method, reference, created_at FROM statement_payments';

/** Issued with a balance and past its due date (UTC); `terms` is the payment terms in days (a placeholder). */
export const overdueSql = (terms: string) => `s.status = 'issued' AND s.total_cents > ${PAID_SUM} AND date(s.issued_at, '+' || ${terms} || ' days') < date('now')`;

// A payment is part of its statement's history: recorded as a create and reversed as a delete of
// its fields (audit_log's action CHECK holds the actions of the audit log's own migration).
const PAYMENT_AUDIT = {
  entity: 'statement',
  table: 'statement_payments',
  entityColumn: 'statement_id',
  fields: {
    paymentId: jsonColumn('id'),
    paidOn: jsonColumn('paid_on'),
    amountCents: jsonColumn('amount_cents'),
    method: jsonColumn('method'),
    reference: jsonColumn('reference'),
  },
} as const;

/** A statement whose payments reach its total: its paid move's condition and its entry's. */
const REACHED: Condition = (_, row) =>
  `${columnOf(row, 'status')} = 'issued' AND ${columnOf(row, 'total_cents')} <= (SELECT coalesce(sum(p.amount_cents), 0) FROM statement_payments p WHERE p.statement_id = ${columnOf(row, 'id')})`;

/** Moves statement `id` to `status` where `where` holds, with its entry first. */
const statusMove = (db: D1Database, id: number, status: StatementStatus, where: Condition[], audit: AuditContext) => [
  auditUpdated(db, audit, { ...STATEMENT_AUDIT, id, values: { status }, where }),
  updateRecord(db, { table: 'statements', id, set: [{ column: 'status', value: status }], where }),
];

/** The statement becomes paid when its payments reach its total. */
const paidWhenReached = (db: D1Database, id: number, audit: AuditContext) => statusMove(db, id, 'paid', [REACHED], audit);

/**
 * The guarded batch of a payment: the row only when the statement is issued and the amount fits
 * within its balance (both in the INSERT's WHERE, so two payments racing for the last cent cannot
 * both land), its entry in the statement's history, then the statement paid when the payments
 * reach its total, with its `statement.paid` event (docs/api.md#webhook-events) only then.
 */
const payment = (db: D1Database, id: number, { paidOn, amountCents, method, reference }: PaymentPayload, issuer: StatementIssuer, audit: AuditContext) => [
  db
    .prepare(
      `INSERT INTO statement_payments (statement_id, paid_on, amount_cents, method, reference)
       SELECT s.id, ?2, ?3, ?4, ?5 FROM statements s WHERE s.id = ?1 AND s.status = 'issued' AND ?3 <= s.total_cents - ${PAID_SUM}
       RETURNING id`,
    )
    .bind(id, paidOn, amountCents, method, reference ?? ''),
  auditCreated(db, audit, PAYMENT_AUDIT),
  ...paidWhenReached(db, id, audit),
  statementMovedEvent(db, id, 'paid', issuer, audit),
];

/**
 * What "Mark paid" adds after the move to paid in the same batch: a payment of the balance, dated
 * today (UTC), so a paid statement's payments always equal its total. A paid statement with
 * nothing left owing was not just moved, so it gets none.
 */
export const balancePayment = (db: D1Database, id: number, audit: AuditContext) => [
  db
    .prepare(
      `INSERT INTO statement_payments (statement_id, paid_on, amount_cents, method, reference)
       SELECT s.id, date('now'), s.total_cents - ${PAID_SUM}, 'other', 'Marked paid' FROM statements s
       WHERE s.id = ?1 AND s.status = 'paid' AND s.total_cents - ${PAID_SUM} > 0`,
    )
    .bind(id),
  auditCreated(db, audit, PAYMENT_AUDIT),
];

/** Why a payment was not recorded, read after the write: 404 (null) or a 409 naming the rule. */
const refusedPayment = async (db: D1Database, id: number) => {
  const row = await db
    .prepare(`SELECT s.status, s.total_cents - ${PAID_SUM} AS balance FROM statements s WHERE s.id = ?1`)
    .bind(id)
    .first<{ status: string; balance: number }>();
  if (!row) return null;
  if (row.status !== 'issued') return new Conflict(`Payments are recorded against issued statements; this one is ${row.status}`);
  return new Conflict(`The payment is more than the balance of ${moneyInMessage(row.balance)}; record at most the balance`);
};

/** Records a payment against an issued statement (README "Billing rules"); null when there is no such statement. */
export const recordPayment = async (db: D1Database, id: number, body: PaymentPayload, issuer: StatementIssuer, audit: AuditContext) => {
  const [inserted] = await db.batch<{ id: number }>(payment(db, id, body, issuer, audit));
  if (inserted?.results[0]) return true;
  const refusal = await refusedPayment(db, id);
  if (!refusal) return null;
  throw refusal;
};

/**
 * Reverses a payment: its row goes (its entry keeps what it was), and a paid statement goes back
 * to issued, both only if the payment is the statement's, in one batch.
 */
export const reversePayment = async (db: D1Database, id: number, paymentId: number, audit: AuditContext) => {
  const paidWithIt: Condition = (bind, row) =>
    `${columnOf(row, 'status')} = 'paid' AND EXISTS (SELECT 1 FROM statement_payments p WHERE p.id = ${bind(paymentId)} AND p.statement_id = ${columnOf(row, 'id')})`;
  const results = await db.batch([
    ...statusMove(db, id, 'issued', [paidWithIt], audit),
    // The entry only for a payment of this statement, as the DELETE's own condition says.
    auditDeleted(db, audit, { ...PAYMENT_AUDIT, id: paymentId, where: [(bind, row) => `${columnOf(row, 'statement_id')} = ${bind(id)}`] }),
    db.prepare('DELETE FROM statement_payments WHERE id = ?1 AND statement_id = ?2 RETURNING id').bind(paymentId, id),
  ]);
  return Boolean(results[3]?.results.length);
};

/** What issued statements still owe by days past due, as of today (UTC): one ledger's, or every ledger's when none is named. */
export const agingSummary = async (db: D1Database, issuer: StatementIssuer, ledger?: Ledger): Promise<AgingSummary> => {
  const rows = await db
    .prepare(
      `SELECT CASE WHEN late <= 0 THEN 'current' WHEN late <= 30 THEN 'days1to30' WHEN late <= 60 THEN 'days31to60' WHEN late <= 90 THEN 'days61to90' ELSE 'days90plus' END AS bucket,
         count(*) AS statements, sum(balance) AS balance
       FROM (SELECT s.total_cents - ${PAID_SUM} AS balance, CAST(julianday(date('now')) - julianday(date(s.issued_at, '+' || ?1 || ' days')) AS INTEGER) AS late
             FROM statements s WHERE s.status = 'issued' AND (?2 IS NULL OR s.ledger = ?2))
       WHERE balance > 0 GROUP BY bucket`,
    )
    .bind(issuer.paymentTermsDays, ledger ?? null)
    .all<{ bucket: AgingBucket; statements: number; balance: number }>();
  const buckets = Object.fromEntries(AGING_BUCKETS.map((bucket) => [bucket, { statements: 0, balanceCents: 0 }])) as AgingSummary['buckets'];
  for (const row of rowsOf<{ bucket: AgingBucket; statements: number; balance: number }>(rows)) buckets[row.bucket] = { statements: row.statements, balanceCents: row.balance };
  const all = Object.values(buckets);
  return {
    asOf: utcDay(),
    buckets,
    totals: { statements: all.reduce((n, b) => n + b.statements, 0), balanceCents: all.reduce((n, b) => n + b.balanceCents, 0) },
  };
};
