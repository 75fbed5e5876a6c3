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
  'audit_log',
] as const;

export type DataTable = (typeof DATA_TABLES)[number];
