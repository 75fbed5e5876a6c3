/**
 * Every data table, parents before children, so a backup restores in this order without
 * breaking a foreign key. A test checks this list against the migrated schema.
 */
export const DATA_TABLES = [
  'users',
  'companies',
  'ticket_categories',
  'tickets',
  'ticket_comments',
  'time_entries',
  'statements',
  'import_batches',
  'invoice_lines',
  'statement_lines',
  'statement_payments',
  'login_attempts',
  'revoked_tokens',
  'audit_log',
] as const;

export type DataTable = (typeof DATA_TABLES)[number];

/**
 * Tables a migration derives from the data tables and keeps in step by triggers: the full-text
 * index and its shadow tables. Backups leave them out; a restore rebuilds them as rows go in.
 */
export const DERIVED_TABLE_PREFIX = 'tickets_fts';

/** Tables of the app's own machinery, never backed up or restored (restore_pending_indexes lives only while a restore runs). */
export const SYSTEM_TABLES = ['backup_lock', 'restore_pending_indexes'] as const;

/**
 * How a backup, which reads page by page, keeps each table consistent (docs/operations.md#backups):
 * - `locked`: read in pages by id while triggers (migration 0006) refuse every insert, update
 *   and delete, so every page sees one state. A test checks each has its three triggers.
 * - `snapshot`: read whole in the transaction that takes the lock, with no triggers, so writes
 *   go on during the backup. Only for tables that stay small: login_attempts holds the current
 *   15-minute sign-in windows (expired ones are pruned first). Locking it would turn away every
 *   sign-in while a backup runs, and dropping failure counts would blunt the rate limit.
 *   revoked_tokens holds the signed-out tokens that have not expired yet, for the same reason.
 * - `capped`: append-only, read in pages by id up to the newest row when the lock was taken. The
 *   audit log: every change it records is in a locked table, so the entries up to the lock are
 *   exactly those of the data backed up, and sign-ins can still add theirs while it runs.
 */
export const BACKUP_MODE: Record<DataTable, 'locked' | 'snapshot' | 'capped'> = {
  users: 'locked',
  companies: 'locked',
  ticket_categories: 'locked',
  tickets: 'locked',
  ticket_comments: 'locked',
  time_entries: 'locked',
  statements: 'locked',
  import_batches: 'locked',
  invoice_lines: 'locked',
  statement_lines: 'locked',
  statement_payments: 'locked',
  login_attempts: 'snapshot',
  revoked_tokens: 'snapshot',
  audit_log: 'capped',
};

/** The schema version: the number of the newest applied migration (names start with it). */
export const SCHEMA_VERSION_SQL = 'SELECT coalesce(max(CAST(name AS INTEGER)), 0) AS version FROM d1_migrations';
