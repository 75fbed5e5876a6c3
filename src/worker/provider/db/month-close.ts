import { statementNumber, type ClosingLedger } from '../../../shared/schemas/invoices';
import type { StatementIssuer } from '../../../shared/types';
import { Conflict, Invalid } from '../errors/domain';
import { auditCreated, jsonColumn, type AuditContext } from './audit';
import { NOW_SQL } from './sql';
import { findStatement } from './statements';
import { VERSION_BUMP } from './versions';

// The month's lines a close bills: ?1 the ledger (which is also the lines' source), ?2 the month.
const UNBILLED = "source = ?1 AND period = ?2 AND status = 'approved' AND statement_id IS NULL";
// The month's invoice that is not void: at most one (index statements_ledger_month_closed).
const CLOSED = "(SELECT id FROM statements WHERE ledger = ?1 AND period = ?2 AND status <> 'void')";
const COPY_SUM = '(SELECT coalesce(sum(amount_cents), 0) FROM statement_lines WHERE statement_id = statements.id)';

const CREATED_FIELDS = {
  ledger: jsonColumn('ledger'),
  period: jsonColumn('period'),
  sequence: jsonColumn('sequence'),
  companyId: jsonColumn('company_id'),
  status: jsonColumn('status'),
};

/**
 * The guarded batch of a month close: the invoice, issued at once and numbered after the month's
 * earlier (void) ones, only while the month has approved lines and no invoice that is not void;
 * its entry; the lines tied to it as invoiced, and their copy and total. The lines follow only an
 * invoice with no copy yet, that is the one this batch made, so a refused close changes nothing
 * and a line approved after the close stays unbilled. A line edit racing the close either lands
 * before it (and is billed as edited) or finds the line frozen on an issued invoice.
 */
const close = (db: D1Database, ledger: ClosingLedger, period: string, audit: AuditContext) => {
  const fresh = `${CLOSED} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM statement_lines WHERE statement_id = ${CLOSED})`;
  return [
    db
      .prepare(
        `INSERT INTO statements (ledger, period, company_id, sequence, status, issued_at)
         SELECT ?1, ?2, CASE WHEN count(DISTINCT coalesce(company_id, 0)) = 1 THEN max(company_id) END,
           coalesce((SELECT max(sequence) FROM statements WHERE ledger = ?1 AND period = ?2), 0) + 1, 'issued', ${NOW_SQL}
         FROM invoice_lines WHERE ${UNBILLED}
         HAVING count(*) > 0 AND ${CLOSED} IS NULL
         RETURNING id`,
      )
      .bind(ledger, period),
    auditCreated(db, audit, { entity: 'statement', table: 'statements', fields: CREATED_FIELDS }),
    db
      .prepare(
        `UPDATE invoice_lines SET statement_id = ${CLOSED}, status = 'invoiced', updated_at = (SELECT issued_at FROM statements WHERE id = ${CLOSED}), ${VERSION_BUMP}
         WHERE ${UNBILLED} AND ${fresh}`,
      )
      .bind(ledger, period),
    db
      .prepare(
        `INSERT INTO statement_lines (statement_id, line_id, source, description, quantity, unit_price_cents, amount_cents, reference)
         SELECT statement_id, id, source, description, quantity, unit_price_cents, amount_cents, reference FROM invoice_lines
         WHERE statement_id = ${CLOSED} AND ${fresh} ORDER BY id`,
      )
      .bind(ledger, period),
    db.prepare(`UPDATE statements SET total_cents = ${COPY_SUM} WHERE id = ${CLOSED} AND total_cents <> ${COPY_SUM}`).bind(ledger, period),
  ];
};

/** Why a close made nothing, read after the write: the month is already closed (409), or has nothing to bill (400). */
const refusedClose = async (db: D1Database, ledger: ClosingLedger, period: string) => {
  const closed = await db.prepare(`SELECT sequence FROM statements WHERE id = ${CLOSED}`).bind(ledger, period).first<number>('sequence');
  if (closed) return new Conflict(`${period} is already closed: invoice ${statementNumber(period, closed, ledger)}; void it to close the month again`);
  return new Invalid(`Nothing to invoice for ${period}: no approved lines are waiting`, { period: ['No approved lines to invoice'] });
};

/** Closes a month of the Autofi or 3D Tracking ledger into one issued invoice (README "Billing rules"). */
export const closeMonth = async (db: D1Database, ledger: ClosingLedger, period: string, issuer: StatementIssuer, audit: AuditContext) => {
  const [inserted] = await db.batch<{ id: number }>(close(db, ledger, period, audit));
  const id = inserted?.results[0]?.id;
  if (id === undefined) throw await refusedClose(db, ledger, period);
  return findStatement(db, id, issuer);
};

/** The month's invoice that is not void, or null while the month is open. */
export const findMonthInvoice = async (db: D1Database, ledger: ClosingLedger, period: string, issuer: StatementIssuer) => {
  const id = await db.prepare(`SELECT id FROM statements WHERE id = ${CLOSED}`).bind(ledger, period).first<number>('id');
  return id ? findStatement(db, id, issuer) : null;
};
