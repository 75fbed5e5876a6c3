import type { AuditEntity } from '../../../shared/types';

/** The API paths whose answers show each kind of record: a change re-reads the mounted ones. */
export const PATHS_OF: Partial<Record<AuditEntity, readonly string[]>> = {
  // Time entries are in their ticket's history, and their minutes in each person's week.
  ticket: ['tickets', 'dashboard', 'reports', 'timesheets', 'search', 'audit'],
  user: ['users', 'tickets', 'reports', 'audit'],
  company: ['companies', 'tickets', 'invoices', 'reports', 'audit'],
  ticket_category: ['ticket-categories', 'tickets', 'reports', 'audit'],
  invoice_line: ['invoices', 'dashboard', 'audit'],
  statement: ['invoices', 'audit'],
  backup: ['settings/backups'],
  timesheet: ['timesheets', 'audit'],
};

/** The record path of an edited record, e.g. `tickets/12`, which its form re-reads itself. */
const RECORD_PATH: Partial<Record<AuditEntity, RegExp>> = {
  ticket: /^tickets\/(\d+)$/,
  user: /^users\/(\d+)$/,
  company: /^companies\/(\d+)$/,
  ticket_category: /^ticket-categories\/(\d+)$/,
  invoice_line: /^invoices\/lines\/(\d+)$/,
  statement: /^invoices\/gifs\/statements\/(\d+)$/,
};

/** The entity:id of an SWR key that is a record's own path, or null. */
export const recordOfPath = (path: string): string | null => {
  for (const [entity, pattern] of Object.entries(RECORD_PATH)) {
    const id = pattern.exec(path)?.[1];
    if (id) return `${entity}:${id}`;
  }
  return null;
};

export const showsEntity = (path: string, entities: Set<AuditEntity>) =>
  [...entities].some((entity) => (PATHS_OF[entity] ?? []).some((prefix) => path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`) || path.startsWith(`${prefix}.`)));
