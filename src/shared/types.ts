import type { Role } from './permissions';
import type { TicketSla } from './sla';
import type { ApiTokenAccess } from './schemas/api-tokens';
import type { AuditAction, AuditEntity } from './schemas/audit';
import type { InvoiceSource, Ledger, LineStatus, StatementStatus } from './schemas/invoices';
import type { AgingBucket, PaymentMethod } from './schemas/payments';
import type { ReportBucket, TicketReportGroup } from './schemas/reports';
import type { SearchResultType } from './schemas/search';
import type { TicketPriority, TicketStatus } from './schemas/tickets';

/**
 * Response shapes of the provider API (docs/api.md#conventions). Their unions come from the shared schemas'
 * const arrays, which the provider validates against.
 */

export type { AuditAction, AuditEntity, Role };

export interface LoginResponse {
  token: string;
  firstName: string;
  surname: string;
  email: string;
  userId: number;
  role: Role;
  /** The person's IANA zone; an upstream provider may leave it out. */
  timeZone?: string;
}

/** An editable record (docs/architecture.md#record-versions). */
export interface Versioned {
  /**
   * +1 per change. GET answers it as the ETag `"<version>"`; a PATCH may send it as If-Match and
   * gets 412 with the current record once it no longer matches.
   */
  version: number;
}

export interface User extends Versioned {
  id: number;
  firstName: string;
  surname: string;
  email: string;
  isActive: boolean;
  role: Role;
  /** IANA name; the daily mail digest goes at 07:00 in it. */
  timeZone: string;
  createdAt: string;
  updatedAt: string;
}

/** A personal API token (docs/api.md#api-tokens); the token itself is answered once, on creation. */
export interface ApiToken {
  id: number;
  name: string;
  access: ApiTokenAccess;
  createdAt: string;
  expiresAt: string;
  /** To the minute. */
  lastUsedAt: string | null;
  /** Whose it is: answered with `?all=true`, the admins' view of everyone's. */
  owner?: { id: number; firstName: string; surname: string; email: string };
}

/** `POST auth/api-tokens`'s answer: the token's one showing. */
export interface CreatedApiToken extends ApiToken {
  token: string;
}

/** A person's passkey (docs/api.md#passkeys); the key itself never leaves the provider. */
export interface Passkey {
  id: number;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

interface PasskeyDescriptor {
  type: 'public-key';
  /** The credential id, base64url. */
  id: string;
  transports?: string[];
}

/** `POST auth/passkeys/register-options`: WebAuthn creation options in their JSON form (binary values base64url). */
export interface PasskeyCreationOptions {
  challenge: string;
  rp: { id: string; name: string };
  user: { id: string; name: string; displayName: string };
  pubKeyCredParams: { type: 'public-key'; alg: number }[];
  timeout: number;
  attestation: 'none';
  authenticatorSelection: { residentKey: 'required'; requireResidentKey: true; userVerification: 'preferred' };
  excludeCredentials: PasskeyDescriptor[];
}

/** `POST auth/passkeys/login-options`: request options for a discoverable passkey (no allowCredentials). */
export interface PasskeyRequestOptions {
  challenge: string;
  rpId: string;
  timeout: number;
  userVerification: 'preferred';
  allowCredentials: PasskeyDescriptor[];
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

export interface BackupResult {
  key: string;
  createdAt: string;
  bytes: number;
  rows: Record<string, number>;
}

/** Who made a backup: a person by the Backup Database button, or the daily schedule. */
export type BackupMadeBy = { type: 'user'; id: number; name: string } | { type: 'schedule' };

/** One backup in R2. Backups written before the streamed format (`.json`) record neither rows nor maker. */
export interface BackupListItem {
  key: string;
  createdAt: string;
  bytes: number;
  rows: number | null;
  madeBy: BackupMadeBy | null;
}

/** `POST settings/backup-db` when the backup did not finish in its first step: the every-minute trigger carries it on. */
export interface BackupStarted {
  runId: string;
}

/** The backup under way (one at a time): how far it has got. `rowsTotal` is null until its copies are counted. */
export interface BackupRun {
  runId: string;
  /** The file it will be, as it will appear in `items` once complete. */
  key: string;
  startedAt: string;
  rowsDone: number;
  rowsTotal: number | null;
}

/** The database's size against D1's ceiling (docs/operations.md#the-10-gb-ceiling). */
export interface DatabaseSize {
  /** As D1 reports it with every answer (`meta.size_after`). */
  bytes: number;
  /** D1's ceiling: 10 GB. */
  limitBytes: number;
  /** About what a backup's copies add while it runs. */
  backupBytes: number;
}

export interface BackupList {
  items: BackupListItem[];
  /** When the newest backup the schedule made was taken; null when it has made none. */
  lastScheduledAt: string | null;
  running: BackupRun | null;
  database: DatabaseSize;
}

export interface ErrorBody {
  message: string;
  errors?: Record<string, string[]>;
}

export interface ProblemBody {
  title: string;
  status: number;
  detail: string;
  /** The fields at fault, as in a 400 (a name or email already taken). */
  errors?: Record<string, string[]>;
}

export interface Company extends Versioned {
  id: number;
  name: string;
  code: string;
  email: string;
  phone: string;
  address: string;
  /** Mail from these domains opens tickets for the company (docs/api.md#mail). */
  emailDomains: string[];
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

/** `GET companies/:id/uses` and `GET ticket-categories/:id/uses`: what still refers to the record ("tickets", "invoice lines"); empty when it may be deleted. */
export interface LookupUses {
  usedBy: string[];
}

export interface TicketCategory extends Versioned {
  id: number;
  name: string;
  description: string;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface Ticket extends Versioned {
  id: number;
  title: string;
  description: string;
  status: TicketStatus;
  priority: TicketPriority;
  companyId: number | null;
  companyName: string | null;
  categoryId: number | null;
  categoryName: string | null;
  assigneeId: number | null;
  assigneeName: string | null;
  reporterId: number | null;
  reporterName: string | null;
  /** Who wrote in, on a ticket opened by mail from a company's domain (docs/api.md#mail); no reporter then. */
  requester: TicketRequester | null;
  dueAt: string | null;
  resolvedAt: string | null;
  /** The service-level clock (docs/api.md#service-levels); null when no policy matches. */
  sla: TicketSla | null;
  createdAt: string;
  updatedAt: string;
}

export interface TicketRequester {
  email: string;
  /** The display name the mail gave, or empty. */
  name: string;
}

export interface TicketComment extends Versioned {
  id: number;
  ticketId: number;
  /** Null on a comment the ticket's requester sent by mail. */
  userId: number | null;
  userName: string;
  body: string;
  /** Sent by the ticket's requester by mail (docs/api.md#mail), from `externalEmail`. */
  external: boolean;
  externalEmail: string | null;
  /** A note for the team only: neither from the requester nor sent to them. */
  internal: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface TimeEntry extends Versioned {
  id: number;
  ticketId: number;
  userId: number;
  userName: string;
  workDate: string;
  minutes: number;
  note: string;
  billable: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface InvoiceLine extends Versioned {
  id: number;
  source: InvoiceSource;
  companyId: number | null;
  companyName: string | null;
  period: string;
  description: string;
  quantity: number;
  unitPriceCents: number;
  amountCents: number;
  reference: string;
  status: LineStatus;
  statementId: number | null;
  statementStatus: StatementStatus | null;
  statementNumber: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface LinePage extends Page<InvoiceLine> {
  totals: { lines: number; quantity: number; amountCents: number };
}

export interface Statement extends Versioned {
  id: number;
  /** `gifs` for a GIFS statement; `autofi` or `3dtracking` for the invoice of a closed month. */
  ledger: Ledger;
  /** `GIFS-<period>-<sequence>`: the first statement of a month is 1, supplementary ones follow. */
  number: string;
  sequence: number;
  companyId: number | null;
  companyName: string | null;
  period: string;
  status: StatementStatus;
  issuedAt: string | null;
  voidedAt: string | null;
  voidReason: string | null;
  totalCents: number;
  lineCount: number;
  /** The sum of the payments recorded against it. */
  paidCents: number;
  /** What is still owed: the total less the payments while issued or paid; 0 while open or void. */
  balanceCents: number;
  /** The issue date plus the payment terms, as YYYY-MM-DD; null until issued. */
  dueOn: string | null;
  /** Issued, with a balance, and past its due date (UTC). */
  overdue: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Who sends the statement, from the provider's configuration (ORG_NAME, ORG_ADDRESS, PAYMENT_TERMS_DAYS). */
export interface StatementIssuer {
  name: string;
  address: string;
  paymentTermsDays: number;
}

/**
 * A line as a statement bills it: an open statement's live lines, or, once it is issued, the
 * copy taken at issue, which never changes again (void included). `id` is the live line's id.
 */
export interface StatementLine {
  id: number;
  /** The company the line bills: on every line, so a printed line names its company. */
  companyId: number | null;
  companyName: string | null;
  source: InvoiceSource;
  description: string;
  quantity: number;
  unitPriceCents: number;
  amountCents: number;
  reference: string;
}

export interface Payment {
  id: number;
  statementId: number;
  paidOn: string;
  amountCents: number;
  method: PaymentMethod;
  reference: string;
  createdAt: string;
}

export interface StatementDetail extends Statement {
  companyAddress: string | null;
  issuer: StatementIssuer;
  lines: StatementLine[];
  payments: Payment[];
}

/** What issued statements still owe, by days past their due date, as of `asOf` (UTC). */
export interface AgingSummary {
  asOf: string;
  buckets: Record<AgingBucket, { statements: number; balanceCents: number }>;
  totals: { statements: number; balanceCents: number };
}

export interface TimesheetReport {
  from: string;
  to: string;
  days: { workDate: string; minutes: number; billableMinutes: number }[];
  users: { userId: number; userName: string; minutes: number; billableMinutes: number }[];
  cells: { userId: number; workDate: string; minutes: number; billableMinutes: number }[];
  totals: { minutes: number; billableMinutes: number };
}

/** Where a person's ISO week stands (docs/api.md#timesheets); a week nobody has submitted is `open`. */
export type TimesheetState = 'open' | 'submitted' | 'approved' | 'rejected';

export interface TimesheetWeek {
  userId: number;
  userName: string;
  /** `2026-W47`. */
  week: string;
  state: TimesheetState;
  /** Time the person logged in the week, read when asked. */
  minutes: number;
  submittedAt: string | null;
  decidedBy: number | null;
  decidedByName: string | null;
  decidedAt: string | null;
  /** Why the week was rejected; empty otherwise. */
  reason: string;
}

/** Time in a billing month from weeks not approved yet: a warning when the month is closed or its statement issued. */
export interface UnapprovedWeeks {
  /** Every such person-week; `weeks` lists the first 50, by week. */
  total: number;
  weeks: Pick<TimesheetWeek, 'userId' | 'userName' | 'week' | 'state' | 'minutes'>[];
}

export interface TicketReport {
  from: string;
  to: string;
  groupBy: TicketReportGroup;
  groups: { key: string; label: string; count: number }[];
  series: { bucket: string; opened: number; resolved: number }[];
  bucket: ReportBucket;
  totals: { opened: number; resolved: number };
  medianResolveHours: number | null;
}

export interface DashboardSummary {
  openTickets: number;
  myOpenTickets: number;
  overdue: number;
  resolvedLast7Days: number;
  minutesThisWeek: number;
  unbilledCents: number;
  /** Open tickets past a service-level target, and those due within SLA_DUE_SOON_HOURS. */
  slaBreached: number;
  slaDueSoon: number;
  recentTickets: Ticket[];
  openedVsResolved: { day: string; opened: number; resolved: number }[];
}

/** `PATCH users/change-password`: a fresh token replaces the caller's, whose old ones now fail. */
export interface ChangePasswordResponse {
  message: string;
  token: string;
}

/**
 * One audit log entry (docs/architecture.md#roles-and-the-audit-log). `changes` maps API field names to [before, after]; a
 * password shows as `{ password: [null, null] }`.
 */
export interface AuditEntry {
  id: number;
  at: string;
  actorId: number | null;
  actorName: string | null;
  action: AuditAction;
  entity: AuditEntity;
  entityId: number | null;
  changes: Record<string, [unknown, unknown]>;
  requestId: string | null;
  /**
   * The record's name as people use it: a person's name, a statement's number, a company's or
   * category's name, a ticket's title. Absent or null when the provider does not know it.
   */
  recordName?: string | null;
  /** Names for the record ids in `changes`, by field and id: `{ companyId: { "16": "Acme Ltd" } }`. */
  names?: Record<string, Record<string, string>>;
}

interface SearchHit {
  id: number;
  title: string;
  subtitle: string;
}

/**
 * One hit of `GET search` (docs/architecture.md#search-and-list-views): with what the client needs
 * to build its address, so opening it takes no second request. An invoice line's address is its
 * ledger's, so its hit names its `source`.
 */
export type SearchResult =
  | (SearchHit & { type: Exclude<SearchResultType, 'invoice_line'> })
  | (SearchHit & { type: 'invoice_line'; source: InvoiceSource });

/** Why a notification was sent (docs/architecture.md#notifications-watchers-and-mentions). */
export type NotificationKind =
  | 'assigned'
  | 'mentioned'
  | 'commented'
  | 'status'
  | 'timesheet_approved'
  | 'timesheet_rejected'
  | 'webhook_disabled'
  | 'sla_warning'
  | 'sla_breached';

export interface Notification {
  id: number;
  at: string;
  kind: NotificationKind;
  entity: AuditEntity;
  entityId: number;
  title: string;
  actorId: number | null;
  actorName: string | null;
  readAt: string | null;
  /** The comment it is about (a new comment, or one that mentions the person); null otherwise. */
  commentId: number | null;
}

/** How many of the person's notifications are unread. */
export interface UnreadCount {
  unread: number;
}

export type NotificationPage = Page<Notification> & UnreadCount;

export interface TicketWatchers {
  items: { userId: number; name: string }[];
  watching: boolean;
}

/** One problem with one row of an import: `row` 1 is the first row after the header; `field` is the column. */
export interface ImportError {
  row: number;
  field: string;
  message: string;
}

/** A row of an import as it would become a line; values that could not be read are null. */
export interface ImportPreviewLine {
  row: number;
  period: string;
  company: string;
  companyId: number | null;
  description: string;
  quantity: number | null;
  unitPriceCents: number | null;
  amountCents: number | null;
  reference: string;
  /** The quantity and unit price as the file has them, to show beside a problem with them. */
  quantityText: string;
  unitPriceText: string;
  /** The ledger holds this reference for this month already: the import skips the row. */
  duplicate: boolean;
}

/** The check of an import (a dry run, or the 400 of an import with errors). */
export interface ImportReport {
  rows: number;
  valid: number;
  duplicates: number;
  errors: ImportError[];
  preview: ImportPreviewLine[];
}

export interface ImportResult {
  batchId: number;
  created: number;
  duplicates: number;
}

export interface ImportBatch {
  id: number;
  source: InvoiceSource;
  fileName: string;
  rows: number;
  created: number;
  duplicates: number;
  userId: number | null;
  userName: string | null;
  at: string;
  undoneAt: string | null;
  /** Lines of it still in the ledger, and how many of them are no longer drafts (which blocks the undo). */
  lines: number;
  billedLines: number;
}
