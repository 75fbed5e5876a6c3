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
  'invoice_lines',
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
