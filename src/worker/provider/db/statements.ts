import { utcDay } from '../../../shared/dates';
import {
  STATEMENT_TRANSITIONS,
  type StatementChanges,
  type StatementState,
  type StatementRequest,
} from '../../../shared/schemas/invoices';
import type { StatementListQuery } from '../../../shared/schemas/payments';
import type { StatementDetail, StatementIssuer } from '../../../shared/types';
import { Conflict, Invalid } from '../errors/domain';
import { readPage } from './pagination';
import { auditCreated, auditUpdated, jsonColumn, type AuditContext } from './audit';
import { STATEMENT_SUM } from './invoices';
import { PAID_SUM, PAYMENT_SELECT, balancePayment, overdueSql } from './payments';
import {
  STATEMENT_LINES_SQL,
  STATEMENT_SELECT,
  rowsOf,
  toPayment,
  toStatement,
  toStatementLine,
  written,
  type PaymentRow,
  type StatementLineRow,
  type StatementRow,
} from './rows';
import { STATEMENT_AUDIT as AUDIT } from './statement-audit';
import { NOW_SQL, columnOf, uniqueOrConflict, whereSql, type Condition } from './sql';
import { VERSION_BUMP, unlessStale, updateRecord, versionMatches } from './versions';
import { statementMovedEvent } from './webhook-events';

// Statements bill the GIFS contract: its SLA and Azure lines of one month.
export const STATEMENT_SOURCES = ['gifs-sla', 'gifs-azure'] as const;
const SOURCES_SQL = STATEMENT_SOURCES.map((s) => `'${s}'`).join(', ');

// What a new statement is at its INSERT: its lines and total are added after the entry.
const CREATED_FIELDS = { period: jsonColumn('period'), sequence: jsonColumn('sequence'), companyId: jsonColumn('company_id'), status: jsonColumn('status') };

const clockOf = (issuer: StatementIssuer) => ({ paymentTermsDays: issuer.paymentTermsDays, today: utcDay() });

/** Statements `s` in the state their badge shows: issued splits into not paid at all and partially paid. */
const stateSql =
  (state: StatementState): Condition =>
  (bind) => {
    if (state === 'partial') return `s.status = 'issued' AND ${PAID_SUM} > 0`;
    if (state === 'issued') return `s.status = 'issued' AND ${PAID_SUM} = 0`;
    return `s.status = ${bind(state)}`;
  };

/** One ledger's statements (GIFS unless named), newest month first; `overdue` keeps those issued and past their due date (UTC), `state` those in that state. */
export const listStatements = async (db: D1Database, query: StatementListQuery, issuer: StatementIssuer) => {
  const list = {
    select: STATEMENT_SELECT,
    counted: 'statements s',
    orderBy: 's.period DESC, s.sequence DESC',
    ...whereSql([(bind) => `s.ledger = ${bind(query.ledger ?? 'gifs')}`, query.overdue && ((bind) => overdueSql(bind(issuer.paymentTermsDays))), query.state && stateSql(query.state)]),
  };
  const clock = clockOf(issuer);
  return (await readPage(db, list, query, (rows: StatementRow[]) => rows.map((row) => toStatement(row, clock)))).page;
};

export const findStatement = async (db: D1Database, id: number, issuer: StatementIssuer): Promise<StatementDetail | null> => {
  const [statement, lines, payments] = await db.batch([
    db.prepare(`${STATEMENT_SELECT} WHERE s.id = ?1`).bind(id),
    db.prepare(STATEMENT_LINES_SQL).bind(id),
    db.prepare(`${PAYMENT_SELECT} WHERE statement_id = ?1 ORDER BY paid_on, id`).bind(id),
  ]);
  const [row] = rowsOf<StatementRow>(statement);
  if (!row) return null;
  return {
    ...toStatement(row, clockOf(issuer)),
    companyAddress: row.company_address,
    issuer,
    lines: rowsOf<StatementLineRow>(lines).map(toStatementLine),
    payments: rowsOf<PaymentRow>(payments).map(toPayment),
  };
};

// The lines a new statement bills: the month's approved GIFS lines on no statement yet, of the
// named company when one is given. ?1 is the period, ?2 the company or null.
const UNBILLED = `source IN (${SOURCES_SQL}) AND period = ?1 AND status = 'approved' AND statement_id IS NULL AND (?2 IS NULL OR company_id = ?2)`;
// A statement has one recipient, so it bills only when those lines belong to one company.
const ONE_COMPANY = 'count(*) > 0 AND min(coalesce(company_id, 0)) = max(coalesce(company_id, 0))';

/**
 * The guarded batch that generates a statement: the row (numbered after the month's last one,
 * so a month billed again gets a supplementary statement), its lines tied to it, and its total.
 * Every step is conditioned on the same unbilled lines existing for one company, so when there is
 * nothing to bill the whole batch changes nothing.
 */
const generation = (db: D1Database, { period, companyId }: StatementRequest, audit: AuditContext) => [
  db
    .prepare(
      `INSERT INTO statements (period, company_id, sequence)
       SELECT ?1, max(company_id), coalesce((SELECT max(sequence) FROM statements WHERE ledger = 'gifs' AND period = ?1), 0) + 1
       FROM invoice_lines WHERE ${UNBILLED} HAVING ${ONE_COMPANY} RETURNING id`,
    )
    .bind(period, companyId ?? null),
  // Right after the INSERT, so it is written exactly when a statement is; its lines and total
  // follow in the same batch.
  auditCreated(db, audit, { ...AUDIT, fields: CREATED_FIELDS }),
  db
    .prepare(
      `UPDATE invoice_lines SET statement_id = (SELECT id FROM statements WHERE ledger = 'gifs' AND period = ?1 ORDER BY sequence DESC LIMIT 1), updated_at = ${NOW_SQL}, ${VERSION_BUMP}
       WHERE ${UNBILLED} AND (SELECT ${ONE_COMPANY} FROM invoice_lines WHERE ${UNBILLED})`,
    )
    .bind(period, companyId ?? null),
  // Part of creating the statement, so it stays at its first version.
  db
    .prepare(`UPDATE statements SET total_cents = ${STATEMENT_SUM} WHERE ledger = 'gifs' AND period = ?1 AND status = 'open' AND total_cents <> ${STATEMENT_SUM}`)
    .bind(period),
];

/** Why nothing was generated, read after the batch: nothing to bill, or lines of several companies. */
const nothingGenerated = async (db: D1Database, { period, companyId }: StatementRequest) => {
  const companies = await db
    .prepare(`SELECT count(DISTINCT coalesce(company_id, 0)) AS n FROM invoice_lines WHERE ${UNBILLED}`)
    .bind(period, companyId ?? null)
    .first<number>('n');
  if (companies && companies > 1) {
    return new Invalid(`The unbilled lines of ${period} belong to ${companies} companies; choose one`, {
      companyId: ['Choose the company to bill'],
    });
  }
  return new Invalid(`Nothing to bill for ${period}: no approved GIFS SLA or Azure lines are waiting for a statement`, {
    period: ['No approved lines to bill'],
  });
};

/**
 * Generates a statement for a month (docs/architecture.md#billing-lines-and-statements). The first of a month is number 1; generating
 * again bills the lines added since as a supplementary statement; nothing to bill is a 400.
 */
export const generateStatement = async (db: D1Database, request: StatementRequest, issuer: StatementIssuer, audit: AuditContext) => {
  const [inserted] = await uniqueOrConflict(db.batch<{ id: number }>(generation(db, request, audit)), 'Another statement was generated at the same time; try again');
  const id = inserted?.results[0]?.id;
  if (id === undefined) throw await nothingGenerated(db, request);
  return written(await findStatement(db, id, issuer), 'statement');
};

/** The sum of a billed statement's copy: its total from issue on. */
const COPY_SUM = '(SELECT coalesce(sum(amount_cents), 0) FROM statement_lines WHERE statement_id = statements.id)';

/**
 * The copy an issue takes of the statement's lines (when `issued`, SQL true once the move has
 * happened), then its total made the sum of that copy. A statement is copied once: a repeated or
 * refused issue finds the copy there, or the statement not issued, and adds nothing. The total
 * is part of the issue, which the move already counted in the statement's version.
 */
const billedCopy = (db: D1Database, id: number, issued: string) => [
  db
    .prepare(
      `INSERT INTO statement_lines (statement_id, line_id, company_id, source, description, quantity, unit_price_cents, amount_cents, reference)
       SELECT ?1, id, company_id, source, description, quantity, unit_price_cents, amount_cents, reference FROM invoice_lines
       WHERE statement_id = ?1 AND ${issued} AND NOT EXISTS (SELECT 1 FROM statement_lines WHERE statement_id = ?1)
       ORDER BY source, id`,
    )
    .bind(id),
  db.prepare(`UPDATE statements SET total_cents = ${COPY_SUM} WHERE id = ?1 AND status = 'issued' AND total_cents <> ${COPY_SUM}`).bind(id),
];

/**
 * The guarded batch of a status move. The UPDATE's WHERE holds the allowed step and the status the
 * caller expects to leave; the lines follow the statement's new status only if it has it, so a
 * refused move changes nothing. Issuing freezes the lines as invoiced; voiding hands them back as
 * approved and unbilled, while the statement keeps its copy and total. The
 * lines take the statement's own time, so no line of an issued statement is newer than its issue.
 * With `version` (If-Match) the statement must also still be at that version. The move's event
 * (docs/api.md#webhook-events) comes last, so it reads the statement as the whole batch left it.
 */
const transition = (db: D1Database, id: number, changes: StatementChanges, issuer: StatementIssuer, audit: AuditContext, version: number | undefined) => [
  ...moveSteps(db, id, changes, audit, version),
  statementMovedEvent(db, id, changes.status, issuer, audit),
];

const moveSteps = (db: D1Database, id: number, { status, from, reason }: StatementChanges, audit: AuditContext, version: number | undefined) => {
  const required = STATEMENT_TRANSITIONS[status];
  // The status the move leaves, which must be the one the caller expects to leave (`from`), and
  // for a void no payments: a statement with payments is not voided, they are reversed first, so
  // no void statement holds money. One condition for the move and its entry.
  const step: Condition = (bind, row) => {
    const current = bind(required);
    const unpaid = status === 'void' ? ` AND NOT EXISTS (SELECT 1 FROM statement_payments p WHERE p.statement_id = ${columnOf(row, 'id')})` : '';
    return `${columnOf(row, 'status')} = ${current} AND coalesce(${bind(from ?? null)}, ${current}) = ${current}${unpaid}`;
  };
  const where = [versionMatches(version), step];
  const entry = auditUpdated(db, audit, { ...AUDIT, id, values: { status, voidReason: status === 'void' ? reason : undefined }, where });
  const move = updateRecord(db, {
    table: 'statements',
    id,
    set: [
      { column: 'status', value: status },
      { column: 'void_reason', value: status === 'void' ? (reason ?? null) : null },
    ],
    computed: [...(status === 'issued' ? [`issued_at = ${NOW_SQL}`] : []), `voided_at = ${status === 'void' ? NOW_SQL : 'NULL'}`],
    where,
  });
  const statusIs = (value: string) => `(SELECT status FROM statements WHERE id = ?1) = '${value}'`;
  if (status === 'issued') {
    return [
      entry,
      move,
      db
        .prepare(
          `UPDATE invoice_lines SET status = 'invoiced', updated_at = (SELECT issued_at FROM statements WHERE id = ?1), ${VERSION_BUMP}
           WHERE statement_id = ?1 AND status <> 'invoiced' AND ${statusIs('issued')}`,
        )
        .bind(id),
      ...billedCopy(db, id, statusIs('issued')),
    ];
  }
  if (status === 'void') {
    return [
      entry,
      move,
      db
        .prepare(
          `UPDATE invoice_lines SET status = 'approved', statement_id = NULL, updated_at = (SELECT voided_at FROM statements WHERE id = ?1), ${VERSION_BUMP}
           WHERE statement_id = ?1 AND ${statusIs('void')}`,
        )
        .bind(id),
    ];
  }
  return [entry, move, ...balancePayment(db, id, audit)];
};

/** Why a move changed nothing, read after the write: 404 (null), a stale version, or a 409 saying where the statement is. */
const refusedMove = async (db: D1Database, id: number, { status, from }: StatementChanges, issuer: StatementIssuer, version: number | undefined) => {
  const current = unlessStale(await findStatement(db, id, issuer), version);
  if (!current) return null;
  const name = current.number;
  if (from && from !== current.status) return new Conflict(`Statement ${name} is ${current.status}, not ${from}; reload it to see what changed`);
  if (status === 'void' && current.status === 'issued' && current.payments.length) {
    return new Conflict(`Statement ${name} has payments recorded; reverse them before voiding it`);
  }
  if (status === current.status) return new Conflict(`Statement ${name} is already ${status}`);
  const verb = status === 'void' ? 'voided' : `marked ${status}`;
  return new Conflict(`Statement ${name} is ${current.status} and cannot be ${verb}`);
};

/** Moves a statement one step: open → issued → paid, or issued → void (docs/architecture.md#billing-lines-and-statements). */
export const moveStatement = async (
  db: D1Database,
  id: number,
  changes: StatementChanges,
  issuer: StatementIssuer,
  audit: AuditContext,
  version?: number,
) => {
  const [, moved] = await db.batch(transition(db, id, changes, issuer, audit, version));
  if (!moved?.meta.changes) {
    const refusal = await refusedMove(db, id, changes, issuer, version);
    if (!refusal) return null;
    throw refusal;
  }
  return findStatement(db, id, issuer);
};
