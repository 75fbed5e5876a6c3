import type { AuditEntity } from '../../../shared/types';

/** The API paths whose answers show each kind of record: a change re-reads the mounted ones. */
export const PATHS_OF: Partial<Record<AuditEntity, readonly string[]>> = {
  // Time entries are in their ticket's history, and their minutes in each person's week.
  ticket: ['tickets', 'dashboard', 'reports', 'timesheets', 'search', 'audit'],
  user: ['users', 'tickets', 'reports', 'audit'],
  company: ['companies', 'tickets', 'invoices', 'reports', 'audit'],
  ticket_category: ['ticket-categories', 'tickets', 'reports', 'audit'],
  calendar: ['calendars', 'sla-policies', 'audit'],
  sla_policy: ['sla-policies', 'audit'],
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
  calendar: /^calendars\/(\d+)$/,
  sla_policy: /^sla-policies\/(\d+)$/,
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

/** The records whose own paths start a path: the record itself and what hangs off it (`tickets/12/comments`). */
const UNDER_RECORD = Object.entries(RECORD_PATH).map(([entity, pattern]) => ({
  entity: entity as AuditEntity,
  pattern: new RegExp(`${pattern.source.replace(/\$$/, '')}(?:[/?]|$)`),
}));

/** The record a path is about, by its own path or under it (`tickets/12/comments`), or as its history (`audit?entity=ticket&entityId=12`). */
const recordShownBy = (path: string, entity: AuditEntity): number | undefined => {
  if (path.startsWith('audit?')) {
    const query = new URLSearchParams(path.slice('audit?'.length));
    const id = query.get('entityId');
    return query.get('entity') === entity && id ? Number(id) : undefined;
  }
  const id = UNDER_RECORD.find((record) => record.entity === entity)?.pattern.exec(path)?.[1];
  return id === undefined ? undefined : Number(id);
};

/**
 * Whether a path shows any of the changed records, by entity → ids: a list of their kind does, and
 * so does a record of another kind (a ticket shows its assignee's name), but a record of the same
 * kind, anything under it, or its history, only when it is one of them: ticket 5's change leaves
 * ticket 12 be.
 */
export const showsChange = (path: string, changed: ReadonlyMap<AuditEntity, ReadonlySet<number>>) =>
  [...changed].some(([entity, ids]) => {
    if (!showsEntity(path, new Set([entity]))) return false;
    const id = recordShownBy(path, entity);
    return id === undefined || ids.has(id);
  });
