/**
 * Every data table, parents before children, so a backup restores in this order without
 * breaking a foreign key. A test checks this list against the migrated schema.
 */
export const DATA_TABLES = [
  'users',
  'notification_settings',
  'passkeys',
  'api_tokens',
  'companies',
  'ticket_categories',
  'calendars',
  'sla_policies',
  'tickets',
  'ticket_comments',
  'time_entries',
  'timesheet_weeks',
  'attachments',
  'statements',
  'import_batches',
  'invoice_lines',
  'statement_lines',
  'statement_payments',
  'ticket_watchers',
  'notifications',
  'login_attempts',
  'revoked_tokens',
  'webhooks',
  'audit_log',
] as const;

export type DataTable = (typeof DATA_TABLES)[number];

/**
 * Tables a migration derives from the data tables and keeps in step by triggers: the full-text
 * indexes of tickets and of comments with their shadow tables, and companies' mail domains one per
 * row. Backups leave them out; a restore rebuilds them as rows go in.
 */
export const DERIVED_TABLE_PREFIXES = ['tickets_fts', 'ticket_comments_fts', 'company_email_domains'] as const;

/**
 * Tables of the app's own machinery, never backed up or restored (restore_pending_indexes lives
 * only while a restore runs; backup_lock is left empty since migration 0012; a passkey challenge
 * is worth nothing after its 5 minutes; webhook deliveries and the mail outbox are send logs, resent
 * by nobody after a restore).
 */
export const SYSTEM_TABLES = ['backup_lock', 'backup_runs', 'restore_pending_indexes', 'passkey_challenges', 'webhook_deliveries', 'mail_outbox'] as const;

/** A running backup's copies of the data tables (src/worker/provider/db/backup/run.ts). */
export const BACKUP_COPY_PREFIX = 'backup_copy_';

/**
 * How a backup, which reads over several invocations, sees one state of each table
 * (docs/operations.md#backups):
 * - `copied`: copied whole, in rowid order, in the one transaction that starts the backup; the
 *   backup reads the copy, so writes go on while it runs.
 * - `capped`: append-only, read in pages by id up to the newest row when the copies were made.
 *   The audit log: every change it records is in a copied table, so the entries up to that moment
 *   are exactly those of the data backed up; copying it would only double the wait.
 */
export const BACKUP_MODE: Record<DataTable, 'copied' | 'capped'> = {
  users: 'copied',
  notification_settings: 'copied',
  passkeys: 'copied',
  api_tokens: 'copied',
  companies: 'copied',
  ticket_categories: 'copied',
  calendars: 'copied',
  sla_policies: 'copied',
  tickets: 'copied',
  ticket_comments: 'copied',
  time_entries: 'copied',
  timesheet_weeks: 'copied',
  attachments: 'copied',
  statements: 'copied',
  import_batches: 'copied',
  invoice_lines: 'copied',
  statement_lines: 'copied',
  statement_payments: 'copied',
  login_attempts: 'copied',
  revoked_tokens: 'copied',
  ticket_watchers: 'copied',
  notifications: 'copied',
  webhooks: 'copied',
  audit_log: 'capped',
};

/** The schema version: the number of the newest applied migration (names start with it). */
export const SCHEMA_VERSION_SQL = 'SELECT coalesce(max(CAST(name AS INTEGER)), 0) AS version FROM d1_migrations';
