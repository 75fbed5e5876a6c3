import { statementNumber, type InvoiceSource, type Ledger, type LineStatus, type StatementStatus } from '../../../shared/schemas/invoices';
import { addDays, utcDay } from '../../../shared/dates';
import type { PaymentMethod } from '../../../shared/schemas/payments';
import type { TicketPriority, TicketStatus } from '../../../shared/schemas/tickets';
import type { SlaState, TicketSla } from '../../../shared/sla';
import { slaStateSql } from './sla/clock-sql';
import type {
  AuditAction,
  AuditEntity,
  AuditEntry,
  Company,
  InvoiceLine,
  Role,
  Payment,
  Statement,
  StatementLine,
  Ticket,
  TicketCategory,
  TicketComment,
  TimeEntry,
  User,
} from '../../../shared/types';
import { fullName } from './sql';

/**
 * Each table's row as SQLite returns it, its joined SELECT (written once here) and its mapping to
 * the API shape. D1 hands back untyped rows; the row types below are what these SELECTs return,
 * so a read names its row type once (`.all<TicketRow>()`) instead of casting column by column.
 */

/** SQLite's 0/1 as a boolean. */
const flag = (value: number) => value === 1;

interface Stamps {
  created_at: string;
  updated_at: string;
}

/** An editable record's row: its version rises with every change (migration 0008). */
interface Editable extends Stamps {
  version: number;
}

export interface UserRow extends Editable {
  id: number;
  first_name: string;
  surname: string;
  email: string;
  is_active: number;
  role: Role;
  time_zone: string;
  session_version: number;
}

/** Every user column but the password hash. */
export const USER_COLUMNS = 'id, first_name, surname, email, is_active, role, time_zone, session_version, created_at, updated_at, version';

export const toUser = (row: UserRow): User => ({
  id: row.id,
  firstName: row.first_name,
  surname: row.surname,
  email: row.email,
  isActive: flag(row.is_active),
  role: row.role,
  timeZone: row.time_zone,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  version: row.version,
});

interface LookupRow extends Editable {
  id: number;
  name: string;
  is_active: number;
}

const lookupBase = (row: LookupRow) => ({ id: row.id, isActive: flag(row.is_active), createdAt: row.created_at, updatedAt: row.updated_at, version: row.version });

export interface CompanyRow extends LookupRow {
  code: string;
  email: string;
  phone: string;
  address: string;
  email_domains: string;
}

export const toCompany = (row: CompanyRow): Company => ({
  ...lookupBase(row),
  name: row.name,
  code: row.code,
  email: row.email,
  phone: row.phone,
  address: row.address,
  emailDomains: JSON.parse(row.email_domains) as string[],
});

export interface TicketCategoryRow extends LookupRow {
  description: string;
}

export const toTicketCategory = (row: TicketCategoryRow): TicketCategory => ({
  ...lookupBase(row),
  name: row.name,
  description: row.description,
});

/** A ticket with the names of what it points at. */
export const TICKET_SELECT = `SELECT t.*, c.name AS company_name, k.name AS category_name,
    ${fullName('a')} AS assignee_name, ${fullName('r')} AS reporter_name, sp.name AS sla_policy_name, ${slaStateSql('t')} AS sla_state
  FROM tickets t
  LEFT JOIN sla_policies sp ON sp.id = t.sla_policy_id
  LEFT JOIN companies c ON c.id = t.company_id
  LEFT JOIN ticket_categories k ON k.id = t.category_id
  LEFT JOIN users a ON a.id = t.assignee_id
  LEFT JOIN users r ON r.id = t.reporter_id`;

export interface TicketRow extends Editable {
  id: number;
  title: string;
  description: string;
  status: TicketStatus;
  priority: TicketPriority;
  company_id: number | null;
  company_name: string | null;
  category_id: number | null;
  category_name: string | null;
  assignee_id: number | null;
  assignee_name: string | null;
  reporter_id: number | null;
  reporter_name: string | null;
  requester_email: string | null;
  requester_name: string | null;
  due_at: string | null;
  resolved_at: string | null;
  sla_policy_id: number | null;
  sla_policy_name: string | null;
  sla_first_response_due_at: string | null;
  sla_first_responded_at: string | null;
  sla_resolution_due_at: string | null;
  sla_paused_seconds: number;
  sla_state: SlaState | null;
}

/** The clock as answers carry it; null without a policy. */
const slaOf = (row: TicketRow): TicketSla | null =>
  row.sla_policy_id === null || row.sla_state === null
    ? null
    : {
        policyId: row.sla_policy_id,
        policyName: row.sla_policy_name ?? '',
        firstResponseDueAt: row.sla_first_response_due_at ?? '',
        firstRespondedAt: row.sla_first_responded_at,
        resolutionDueAt: row.sla_resolution_due_at ?? '',
        pausedSeconds: row.sla_paused_seconds,
        state: row.sla_state,
      };

export const toTicket = (row: TicketRow): Ticket => ({
  id: row.id,
  title: row.title,
  description: row.description,
  status: row.status,
  priority: row.priority,
  companyId: row.company_id,
  companyName: row.company_name,
  categoryId: row.category_id,
  categoryName: row.category_name,
  assigneeId: row.assignee_id,
  assigneeName: row.assignee_name,
  reporterId: row.reporter_id,
  reporterName: row.reporter_name,
  requester: row.requester_email === null ? null : { email: row.requester_email, name: row.requester_name ?? '' },
  dueAt: row.due_at,
  resolvedAt: row.resolved_at,
  sla: slaOf(row),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  version: row.version,
});

/** The author's full name, for SELECTs that join users as `u`. */
const AUTHOR_NAME = `${fullName('u')} AS user_name`;

/** A requester's comment has no user: it is named as its ticket names the requester, else by the address. */
export const COMMENT_SELECT = `SELECT m.*, coalesce(${fullName('u')}, nullif((SELECT requester_name FROM tickets WHERE id = m.ticket_id), ''), m.external_email) AS user_name
  FROM ticket_comments m LEFT JOIN users u ON u.id = m.user_id`;

export interface CommentRow extends Editable {
  id: number;
  ticket_id: number;
  user_id: number | null;
  user_name: string;
  body: string;
  external_email: string | null;
  sent_to_requester: number;
}

export const toComment = (row: CommentRow): TicketComment => ({
  id: row.id,
  ticketId: row.ticket_id,
  userId: row.user_id,
  userName: row.user_name,
  body: row.body,
  external: row.external_email !== null,
  externalEmail: row.external_email,
  internal: row.external_email === null && row.sent_to_requester === 0,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  version: row.version,
});

export const TIME_ENTRY_SELECT = `SELECT e.*, ${AUTHOR_NAME} FROM time_entries e JOIN users u ON u.id = e.user_id`;

export interface TimeEntryRow extends Editable {
  id: number;
  ticket_id: number;
  user_id: number;
  user_name: string;
  work_date: string;
  minutes: number;
  note: string;
  billable: number;
}

export const toTimeEntry = (row: TimeEntryRow): TimeEntry => ({
  id: row.id,
  ticketId: row.ticket_id,
  userId: row.user_id,
  userName: row.user_name,
  workDate: row.work_date,
  minutes: row.minutes,
  note: row.note,
  billable: flag(row.billable),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  version: row.version,
});

/** An invoice line with its company's name and its statement's status and number. */
export const LINE_SELECT = `SELECT l.*, c.name AS company_name, s.status AS statement_status, s.period AS statement_period, s.sequence AS statement_sequence, s.ledger AS statement_ledger
  FROM invoice_lines l LEFT JOIN companies c ON c.id = l.company_id LEFT JOIN statements s ON s.id = l.statement_id`;

export interface LineRow extends Editable {
  id: number;
  source: InvoiceSource;
  company_id: number | null;
  company_name: string | null;
  period: string;
  description: string;
  quantity: number;
  unit_price_cents: number;
  amount_cents: number;
  reference: string;
  status: LineStatus;
  statement_id: number | null;
  statement_status: StatementStatus | null;
  statement_period: string | null;
  statement_sequence: number | null;
  statement_ledger: Ledger | null;
}

export const toLine = (row: LineRow): InvoiceLine => ({
  id: row.id,
  source: row.source,
  companyId: row.company_id,
  companyName: row.company_name,
  period: row.period,
  description: row.description,
  quantity: row.quantity,
  unitPriceCents: row.unit_price_cents,
  amountCents: row.amount_cents,
  reference: row.reference,
  status: row.status,
  statementId: row.statement_id,
  statementStatus: row.statement_status,
  statementNumber: row.statement_period !== null && row.statement_sequence !== null ? statementNumber(row.statement_period, row.statement_sequence, row.statement_ledger ?? 'gifs') : null,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  version: row.version,
});

/**
 * A statement with its company's name and address and the number of lines it bills: an open
 * statement's live lines, a billed (issued, paid or void) one's copy.
 */
export const STATEMENT_SELECT = `SELECT s.*, c.name AS company_name, c.address AS company_address,
    CASE WHEN s.status = 'open' THEN (SELECT count(*) FROM invoice_lines WHERE statement_id = s.id)
      ELSE (SELECT count(*) FROM statement_lines WHERE statement_id = s.id) END AS line_count,
    (SELECT coalesce(sum(amount_cents), 0) FROM statement_payments WHERE statement_id = s.id) AS paid_cents
  FROM statements s LEFT JOIN companies c ON c.id = s.company_id`;

/**
 * The lines a statement shows and prints (?1 its id): its copy once billed, its live lines while
 * open. An issued statement still has live lines pointing at it, so they count only while open.
 */
export const STATEMENT_LINES_SQL = `SELECT x.*, co.name AS company_name FROM (
    SELECT line_id AS id, company_id, source, description, quantity, unit_price_cents, amount_cents, reference FROM statement_lines WHERE statement_id = ?1
    UNION ALL
    SELECT id, company_id, source, description, quantity, unit_price_cents, amount_cents, reference FROM invoice_lines
    WHERE statement_id = ?1 AND (SELECT status FROM statements WHERE id = ?1) = 'open'
  ) x LEFT JOIN companies co ON co.id = x.company_id
  ORDER BY x.source, x.id`;

export interface StatementLineRow {
  id: number;
  company_id: number | null;
  company_name: string | null;
  source: InvoiceSource;
  description: string;
  quantity: number;
  unit_price_cents: number;
  amount_cents: number;
  reference: string;
}

export const toStatementLine = (row: StatementLineRow): StatementLine => ({
  id: row.id,
  companyId: row.company_id,
  companyName: row.company_name,
  source: row.source,
  description: row.description,
  quantity: row.quantity,
  unitPriceCents: row.unit_price_cents,
  amountCents: row.amount_cents,
  reference: row.reference,
});

export interface StatementRow extends Editable {
  id: number;
  ledger: Ledger;
  period: string;
  sequence: number;
  company_id: number | null;
  company_name: string | null;
  company_address: string | null;
  status: StatementStatus;
  issued_at: string | null;
  voided_at: string | null;
  void_reason: string | null;
  total_cents: number;
  line_count: number;
  paid_cents: number;
}

/** What a statement's dates are read against: the payment terms and today (UTC, YYYY-MM-DD). */
export interface StatementClock {
  paymentTermsDays: number;
  today: string;
}

export const toStatement = (row: StatementRow, clock: StatementClock): Statement => {
  const dueOn = row.issued_at ? addDays(utcDay(new Date(row.issued_at)), clock.paymentTermsDays) : null;
  const balanceCents = row.status === 'issued' || row.status === 'paid' ? row.total_cents - row.paid_cents : 0;
  return {
    id: row.id,
    number: statementNumber(row.period, row.sequence, row.ledger),
    ledger: row.ledger,
    sequence: row.sequence,
    companyId: row.company_id,
    companyName: row.company_name,
    period: row.period,
    status: row.status,
    issuedAt: row.issued_at,
    voidedAt: row.voided_at,
    voidReason: row.void_reason,
    totalCents: row.total_cents,
    lineCount: row.line_count,
    paidCents: row.paid_cents,
    balanceCents,
    dueOn,
    overdue: row.status === 'issued' && balanceCents > 0 && dueOn !== null && dueOn < clock.today,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
  };
};

export interface PaymentRow {
  id: number;
  statement_id: number;
  paid_on: string;
  amount_cents: number;
  method: PaymentMethod;
  reference: string;
  created_at: string;
}

export const toPayment = (row: PaymentRow): Payment => ({
  id: row.id,
  statementId: row.statement_id,
  paidOn: row.paid_on,
  amountCents: row.amount_cents,
  method: row.method,
  reference: row.reference,
  createdAt: row.created_at,
});

/** An audit entry with its actor's name. */
export const AUDIT_SELECT = `SELECT a.*, ${fullName('u')} AS actor_name FROM audit_log a LEFT JOIN users u ON u.id = a.actor_id`;

export interface AuditRow {
  id: number;
  at: string;
  actor_id: number | null;
  actor_name: string | null;
  action: AuditAction;
  entity: AuditEntity;
  entity_id: number | null;
  /** JSON text: API field → [before, after]. */
  changes: string;
  request_id: string | null;
}

export const toAuditEntry = (row: AuditRow): AuditEntry => ({
  id: row.id,
  at: row.at,
  actorId: row.actor_id,
  actorName: row.actor_name,
  action: row.action,
  entity: row.entity,
  entityId: row.entity_id,
  changes: JSON.parse(row.changes) as AuditEntry['changes'],
  requestId: row.request_id,
});

/** The rows of one statement of a batch, which D1 types only for the batch as a whole. */
export const rowsOf = <R>(result: D1Result | undefined) => (result?.results ?? []) as R[];

/** What a write has just made or changed, read back: its absence is a bug, never a 404. */
export const written = <T>(value: T | null | undefined, what: string): T => {
  if (value == null) throw new Error(`${what} missing right after its write`);
  return value;
};
