import { LEDGER_PREFIXES, type StatementTarget } from '../../../shared/schemas/invoices';
import type { StatementIssuer } from '../../../shared/types';
import type { AuditContext } from './audit';
import { LINE_SELECT, STATEMENT_LINES_SQL, STATEMENT_SELECT } from './rows';
import { webhookOutbox } from './webhooks';
import { slaJsonSql } from './sla/clock-sql';

/**
 * The outbox statements of each event (docs/api.md#webhook-events), for the batches of the
 * writes that cause them. Each builds its record in SQL from the committed row, in the shape the
 * API answers it (names of linked records as well as their ids), so a delivery is exactly what
 * was written, whatever happens to the row later.
 */

const PERSON = (column: string) => `(SELECT first_name || ' ' || surname FROM users WHERE id = t.${column})`;

const ticketJson = (where: string) =>
  // Built in two calls: D1 takes at most 32 arguments per SQL function (json_patch would drop nulls).
  `SELECT json_set(
     json_object('id', t.id, 'title', t.title, 'description', t.description, 'status', t.status, 'priority', t.priority,
       'companyId', t.company_id, 'companyName', (SELECT name FROM companies WHERE id = t.company_id),
       'categoryId', t.category_id, 'categoryName', (SELECT name FROM ticket_categories WHERE id = t.category_id)),
     '$.assigneeId', t.assignee_id, '$.assigneeName', ${PERSON('assignee_id')}, '$.reporterId', t.reporter_id, '$.reporterName', ${PERSON('reporter_id')},
     '$.requester', CASE WHEN t.requester_email IS NULL THEN NULL ELSE json_object('email', t.requester_email, 'name', coalesce(t.requester_name, '')) END,
     '$.dueAt', t.due_at, '$.resolvedAt', t.resolved_at, '$.createdAt', t.created_at, '$.updatedAt', t.updated_at, '$.version', t.version,
     '$.sla', json(${slaJsonSql('t')}))
   FROM tickets t WHERE ${where}`;

/** After the ticket's `create` audit entry: the entry names the new ticket. */
export const ticketCreatedEvent = (db: D1Database, audit: AuditContext) =>
  webhookOutbox(db, 'ticket.created', ticketJson("t.id = (SELECT entity_id FROM audit_log WHERE rowid = last_insert_rowid() AND entity = 'ticket')"), [], audit);

/**
 * At the end of the update's batch: only when the update changed the ticket, which is exactly when
 * the batch wrote its `update` entry (the entry reads the row with the UPDATE's own conditions).
 */
export const ticketUpdatedEvent = (db: D1Database, id: number, audit: AuditContext) =>
  webhookOutbox(
    db,
    'ticket.updated',
    ticketJson("t.id = ?4 AND EXISTS (SELECT 1 FROM audit_log WHERE request_id = ?3 AND action = 'update' AND entity = 'ticket' AND entity_id = ?4)"),
    [id],
    audit,
  );

/**
 * At the end of a comment's batch: the newest comment of the author on the ticket is the one the
 * batch inserted (the batch is one transaction), present only when the INSERT ran.
 */
export const commentAddedEvent = (db: D1Database, ticketId: number, audit: AuditContext) =>
  webhookOutbox(
    db,
    'ticket.comment_added',
    `SELECT json_object('id', c.id, 'ticketId', c.ticket_id, 'userId', c.user_id,
       'userName', coalesce((SELECT first_name || ' ' || surname FROM users WHERE id = c.user_id), (SELECT nullif(requester_name, '') FROM tickets WHERE id = c.ticket_id), c.external_email),
       'body', c.body, 'external', json(CASE WHEN c.external_email IS NULL THEN 'false' ELSE 'true' END), 'externalEmail', c.external_email,
       'internal', json(CASE WHEN c.external_email IS NULL AND c.sent_to_requester = 0 THEN 'true' ELSE 'false' END),
       'createdAt', c.created_at, 'updatedAt', c.updated_at, 'version', c.version)
     FROM ticket_comments c WHERE c.id = (SELECT max(id) FROM ticket_comments WHERE ticket_id = ?4 AND user_id IS ?2)
       AND EXISTS (SELECT 1 FROM audit_log WHERE request_id = ?3 AND action = 'comment' AND entity_id = ?4)`,
    [ticketId],
    audit,
  );

/** At the end of a user's update batch that set isActive false: only when that update took effect. */
export const userDeactivatedEvent = (db: D1Database, id: number, audit: AuditContext) =>
  webhookOutbox(
    db,
    'user.deactivated',
    `SELECT json_object('id', u.id, 'firstName', u.first_name, 'surname', u.surname, 'email', u.email, 'isActive', json('false'), 'role', u.role, 'timeZone', u.time_zone,
       'createdAt', u.created_at, 'updatedAt', u.updated_at, 'version', u.version)
     FROM users u WHERE u.id = ?4 AND u.is_active = 0
       AND EXISTS (SELECT 1 FROM audit_log WHERE request_id = ?3 AND entity = 'user' AND entity_id = ?4 AND changes ->> '$.isActive' IS NOT NULL)`,
    [id],
    audit,
  );

/** A document's number from its ledger, month and sequence, as statementNumber writes it. */
const numberSql = (ledger: string, period: string, sequence: string) =>
  `(CASE ${ledger} ${Object.entries(LEDGER_PREFIXES)
    .map(([name, prefix]) => `WHEN '${name}' THEN '${prefix}'`)
    .join(' ')} END || '-' || ${period} || '-' || ${sequence})`;

/**
 * A statement as `GET invoices/gifs/statements/{id}` answers it (findStatement and toStatement),
 * read with the same SELECTs: ?4 is its id, ?5 the issuer as JSON. The due date, balance and
 * overdue flag are toStatement's rules in SQL, read against today (UTC) as the API reads them.
 * Lists go through json() because a subquery's result loses its JSON type.
 */
const statementJson = (where: string) => {
  const balance = "CASE WHEN r.status IN ('issued', 'paid') THEN r.total_cents - r.paid_cents ELSE 0 END";
  const due = "date(r.issued_at, '+' || (?5 ->> '$.paymentTermsDays') || ' days')";
  return `SELECT json_set(
     json_object('id', r.id, 'number', ${numberSql('r.ledger', 'r.period', 'r.sequence')}, 'ledger', r.ledger, 'sequence', r.sequence,
       'companyId', r.company_id, 'companyName', r.company_name, 'period', r.period, 'status', r.status, 'issuedAt', r.issued_at,
       'voidedAt', r.voided_at, 'voidReason', r.void_reason, 'totalCents', r.total_cents, 'lineCount', r.line_count, 'paidCents', r.paid_cents,
       'balanceCents', ${balance}, 'dueOn', ${due}),
     '$.overdue', json(CASE WHEN r.status = 'issued' AND ${balance} > 0 AND ${due} < date('now') THEN 'true' ELSE 'false' END),
     '$.createdAt', r.created_at, '$.updatedAt', r.updated_at, '$.version', r.version, '$.companyAddress', r.company_address, '$.issuer', json(?5),
     '$.lines', json((SELECT json_group_array(json_object('id', x.id, 'companyId', x.company_id, 'companyName', x.company_name, 'source', x.source,
         'description', x.description, 'quantity', x.quantity, 'unitPriceCents', x.unit_price_cents, 'amountCents', x.amount_cents, 'reference', x.reference))
       FROM (${STATEMENT_LINES_SQL.replaceAll('?1', '?4')}) x)),
     '$.payments', json((SELECT json_group_array(json_object('id', p.id, 'statementId', p.statement_id, 'paidOn', p.paid_on, 'amountCents', p.amount_cents,
         'method', p.method, 'reference', p.reference, 'createdAt', p.created_at))
       FROM (SELECT * FROM statement_payments WHERE statement_id = ?4 ORDER BY paid_on, id) p)))
   FROM (${STATEMENT_SELECT} WHERE s.id = ?4) r WHERE ${where}`;
};

const STATEMENT_EVENTS = { issued: 'statement.issued', paid: 'statement.paid', void: 'statement.voided' } as const satisfies Record<StatementTarget, string>;

/**
 * At the end of a batch that may move statement `id` to `status` (a PATCH, or a payment reaching
 * its total): only when the move took effect, which is exactly when the batch wrote its entry
 * (the entry carries the move's own conditions). Read after the whole batch, so an issued
 * statement's lines are its copy and a marked-paid one's payments include the balance payment.
 */
export const statementMovedEvent = (db: D1Database, id: number, status: StatementTarget, issuer: StatementIssuer, audit: AuditContext) =>
  webhookOutbox(
    db,
    STATEMENT_EVENTS[status],
    statementJson(
      `EXISTS (SELECT 1 FROM audit_log WHERE request_id = ?3 AND action = 'update' AND entity = 'statement' AND entity_id = ?4 AND changes ->> '$.status[1]' = ?6)`,
    ),
    [id, JSON.stringify(issuer), status],
    audit,
  );

/** After a new line's `create` audit entry: the entry names the line; as `GET invoices/lines/{id}` answers it. */
export const lineCreatedEvent = (db: D1Database, audit: AuditContext) =>
  webhookOutbox(
    db,
    'invoice_line.created',
    `SELECT json_set(
       json_object('id', r.id, 'source', r.source, 'companyId', r.company_id, 'companyName', r.company_name, 'period', r.period,
         'description', r.description, 'quantity', r.quantity, 'unitPriceCents', r.unit_price_cents, 'amountCents', r.amount_cents,
         'reference', r.reference, 'status', r.status, 'statementId', r.statement_id, 'statementStatus', r.statement_status),
       '$.statementNumber', CASE WHEN r.statement_period IS NOT NULL AND r.statement_sequence IS NOT NULL
         THEN ${numberSql("coalesce(r.statement_ledger, 'gifs')", 'r.statement_period', 'r.statement_sequence')} END,
       '$.createdAt', r.created_at, '$.updatedAt', r.updated_at, '$.version', r.version)
     FROM (${LINE_SELECT}) r WHERE r.id = (SELECT entity_id FROM audit_log WHERE rowid = last_insert_rowid() AND entity = 'invoice_line')`,
    [],
    audit,
  );
