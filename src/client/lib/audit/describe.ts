import { SETUP_REQUEST_ID } from '../../../shared/schemas/audit';
import type { AuditAction, AuditEntity, AuditEntry } from '../../../shared/types';
import { formatCents, formatDate, formatDateTime, formatMinutes, formatMonth } from '../format';

export const ACTION_LABELS: Record<AuditAction, string> = {
  create: 'Created',
  update: 'Changed',
  delete: 'Deleted',
  comment: 'Commented',
  time: 'Logged time',
  password: 'Changed the password',
  login: 'Signed in',
  login_failed: 'Sign-in failed',
  backup: 'Backed up the database',
  comment_edit: 'Edited a comment',
  comment_delete: 'Deleted a comment',
  time_edit: 'Corrected time',
  time_delete: 'Deleted time',
  import: 'Imported lines',
  attach: 'Attached a file',
  detach: 'Removed a file',
  submit: 'Submitted the week',
  approve: 'Approved the week',
  reject: 'Rejected the week',
  reopen: 'Reopened the week',
  passkey_add: 'Added a passkey',
  passkey_remove: 'Removed a passkey',
  token_add: 'Added an API token',
  token_remove: 'Removed an API token',
  mail_in: 'Sent by mail',
};

export const ENTITY_LABELS: Record<AuditEntity, string> = {
  user: 'User',
  ticket: 'Ticket',
  company: 'Company',
  ticket_category: 'Ticket category',
  invoice_line: 'Invoice line',
  statement: 'Statement',
  backup: 'Backup',
  session: 'Sign-in',
  import: 'Import',
  timesheet: 'Timesheet',
  webhook: 'Webhook',
  calendar: 'Calendar',
  sla_policy: 'Service-level policy',
};

// The API's field names (docs/architecture.md#roles-and-the-audit-log) as the pages label them; others are spelled out from camelCase.
const FIELD_LABELS: Record<string, string> = {
  firstName: 'First name',
  isActive: 'Status',
  companyId: 'Company',
  categoryId: 'Category',
  assigneeId: 'Assignee',
  reporterId: 'Reporter',
  dueAt: 'Due date',
  resolvedAt: 'Resolved',
  issuedAt: 'Issued',
  unitPriceCents: 'Unit price',
  amountCents: 'Amount',
  totalCents: 'Total',
  statementId: 'Statement',
  body: 'Comment',
  minutes: 'Time',
  workDate: 'Work date',
  paidOn: 'Paid on',
  paymentId: 'Payment',
  sha256: 'SHA-256',
  commentId: 'Comment',
};

/** `unitPriceCents` → "Unit price cents": the fallback for a field this client does not know yet. */
const spelledOut = (field: string) => {
  const words = field.replace(/_/g, ' ').replace(/([a-z\d])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

export const fieldLabel = (field: string) => FIELD_LABELS[field] ?? spelledOut(field);

/** How one field's values read; a page passes these for fields only it can name (ids of related records). */
export type ValueFormats = Partial<Record<string, (value: unknown) => string | undefined>>;

const EMPTY = '—';
// Stored as snake_case words (`in_progress`), shown as the pages show them ("In progress").
const WORD_FIELDS = new Set(['status', 'priority', 'role']);
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** A list the audit log may hold as JSON text or as the array itself (a calendar's hours and holidays). */
const listOf = (value: unknown): unknown[] | null => {
  if (Array.isArray(value)) return value;
  if (typeof value !== 'string' || !value.startsWith('[')) return null;
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed : null;
  } catch {
    return null;
  }
};

const isSpan = (item: unknown): item is { day: number; from: string; to: string } =>
  typeof item === 'object' && item !== null && 'day' in item && 'from' in item && 'to' in item;

/** A calendar's lists as people read them: "Mon 09:00–17:30, Tue 09:00–12:00"; holidays as dates; none as around the clock. */
const LIST_FIELDS: Record<string, (items: unknown[]) => string> = {
  hours: (items) => (items.length ? items.filter(isSpan).map((span) => `${WEEKDAYS[span.day - 1] ?? span.day} ${span.from}–${span.to}`).join(', ') : 'Around the clock'),
  holidays: (items) => (items.length ? items.map((day) => (typeof day === 'string' ? formatDate(day) : String(day))).join(', ') : 'None'),
};


/** A stored value as a person reads it: statuses and roles as words, money, dates and times in the user's locale. */
export const formatValue = (field: string, value: unknown, formats: ValueFormats = {}): string => {
  if (value === null || value === undefined || value === '') return EMPTY;
  const custom = formats[field]?.(value);
  if (custom !== undefined) return custom;
  const list = LIST_FIELDS[field] && listOf(value);
  if (list) return LIST_FIELDS[field]?.(list) ?? EMPTY;
  if (typeof value === 'boolean') return field === 'isActive' ? (value ? 'Active' : 'Inactive') : value ? 'Yes' : 'No';
  if (typeof value === 'number') {
    if (field.endsWith('Cents')) return formatCents(value);
    if (field === 'minutes' || field.endsWith('Minutes')) return formatMinutes(value);
    if (field.endsWith('Id')) return `#${value}`;
    return value.toLocaleString();
  }
  if (typeof value !== 'string') return JSON.stringify(value);
  if (WORD_FIELDS.has(field)) return spelledOut(value);
  if (field === 'period' && /^\d{4}-\d{2}$/.test(value)) return formatMonth(value);
  if ((field === 'dueAt' || field.endsWith('Date')) && /^\d{4}-\d{2}-\d{2}/.test(value)) return formatDate(value.slice(0, 10));
  if (field.endsWith('At') && !Number.isNaN(Date.parse(value))) return formatDateTime(value);
  return value;
};

export interface FieldChange {
  field: string;
  label: string;
  /** 'set' has one value (a new record's, a comment's, a deleted record's last); 'secret' none (a password). */
  kind: 'changed' | 'set' | 'secret';
  before: string;
  after: string;
}

const SECRET_FIELDS = new Set(['password']);

const describeOne = (action: AuditAction, field: string, pair: [unknown, unknown], formats: ValueFormats): FieldChange => {
  const [before, after] = pair;
  const label = fieldLabel(field);
  if (SECRET_FIELDS.has(field)) return { field, label, kind: 'secret', before: '', after: 'changed' };
  const shown = { before: formatValue(field, before, formats), after: formatValue(field, after, formats) };
  // A new record's (or comment's) values and a deleted record's last values read as plain facts.
  if (action === 'delete') return { field, label, kind: 'set', before: '', after: shown.before };
  const firstValue = action !== 'update' && (before === null || before === undefined);
  return { field, label, kind: firstValue ? 'set' : 'changed', ...shown };
};

/** The provider's names for the ids in an entry's changes first, then the page's own. */
const withNames = (names: AuditEntry['names'] = {}, formats: ValueFormats): ValueFormats => {
  const merged: ValueFormats = { ...formats };
  for (const [field, byId] of Object.entries(names)) merged[field] = (value) => byId[String(value)] ?? formats[field]?.(value);
  return merged;
};

/** An entry's changes as labelled lines, in the order the API sent them; a new or deleted record's empty fields are left out. */
export const describeChanges = (entry: Pick<AuditEntry, 'action' | 'changes' | 'names'>, formats: ValueFormats = {}): FieldChange[] => {
  const named = withNames(entry.names, formats);
  return Object.entries(entry.changes ?? {})
    .map(([field, pair]) => describeOne(entry.action, field, pair, named))
    .filter((change) => change.kind !== 'set' || change.after !== EMPTY);
};

/** The record an entry is about, by the name people use when the provider sent one ("Statement: GIFS-2026-10-1"). */
export const recordLabel = (entry: Pick<AuditEntry, 'entity' | 'entityId' | 'recordName'>) => {
  const kind = ENTITY_LABELS[entry.entity] ?? entry.entity;
  if (entry.recordName) return `${kind}: ${entry.recordName}`;
  return entry.entityId ? `${kind} #${entry.entityId}` : kind;
};

/**
 * Who did it: the actor's name; for a failed sign-in, which has no actor, the email tried; "Setup"
 * for what `npm run admin:create` made before anyone could sign in.
 */
export const actorOf = (entry: Pick<AuditEntry, 'actorId' | 'actorName'> & Partial<Pick<AuditEntry, 'requestId' | 'action' | 'changes'>>) => {
  if (entry.actorName) return entry.actorName;
  const tried = entry.action === 'login_failed' ? entry.changes?.email?.[1] : undefined;
  if (typeof tried === 'string' && tried) return tried;
  // A refused passkey or Access sign-in names no email: say how it came, not that nobody did.
  const method = entry.action === 'login_failed' ? entry.changes?.method?.[1] : undefined;
  if (method === 'passkey') return 'Unrecognised passkey';
  if (method === 'access') return 'Unverified Access sign-in';
  if (entry.actorId) return `User #${entry.actorId}`;
  return entry.requestId === SETUP_REQUEST_ID ? 'Setup' : 'Someone unknown';
};
