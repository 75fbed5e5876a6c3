import type { TicketChanges, TicketListQuery, TicketPayload, TicketSort } from '../../../shared/schemas/tickets';
import type { Ticket } from '../../../shared/types';
import { pageOf, pageWindow } from '../http/pagination';
import { auditCreated, auditUpdated, jsonColumn, type AuditContext, type AuditFields } from './audit';
import { assertReferencesExist } from './references';
import { searchTerms } from './search-terms';
import { NOW_SQL, assignments, insertSql, setSql, valuesOf } from './sql';
import { VERSION_BUMP, unlessStale, versionMatches } from './versions';

type Row = Record<string, unknown>;

const SELECT = `SELECT t.*, c.name AS company_name, k.name AS category_name,
    a.first_name || ' ' || a.surname AS assignee_name, r.first_name || ' ' || r.surname AS reporter_name
  FROM tickets t
  LEFT JOIN companies c ON c.id = t.company_id
  LEFT JOIN ticket_categories k ON k.id = t.category_id
  LEFT JOIN users a ON a.id = t.assignee_id
  LEFT JOIN users r ON r.id = t.reporter_id`;

const COLUMNS: Record<string, string> = {
  title: 'title',
  description: 'description',
  status: 'status',
  priority: 'priority',
  companyId: 'company_id',
  categoryId: 'category_id',
  assigneeId: 'assignee_id',
  reporterId: 'reporter_id',
  dueAt: 'due_at',
  resolvedAt: 'resolved_at',
};

const AUDIT = {
  entity: 'ticket',
  table: 'tickets',
  fields: Object.fromEntries(Object.entries(COLUMNS).map(([field, column]) => [field, jsonColumn(column)])) as AuditFields,
} as const;

// Priority and status sort by their meaning, not alphabetically.
const SORT_SQL: Record<TicketSort, string> = {
  createdAt: 't.created_at',
  updatedAt: 't.updated_at',
  dueAt: 't.due_at',
  title: 't.title COLLATE NOCASE',
  id: 't.id',
  priority: "CASE t.priority WHEN 'low' THEN 0 WHEN 'normal' THEN 1 WHEN 'high' THEN 2 ELSE 3 END",
  status: "CASE t.status WHEN 'open' THEN 0 WHEN 'in_progress' THEN 1 WHEN 'on_hold' THEN 2 WHEN 'resolved' THEN 3 ELSE 4 END",
};

const CLOSED = ['resolved', 'closed'];

export const toTicket = (row: Row): Ticket => ({
  id: row.id as number,
  title: row.title as string,
  description: row.description as string,
  status: row.status as Ticket['status'],
  priority: row.priority as Ticket['priority'],
  companyId: (row.company_id as number | null) ?? null,
  companyName: (row.company_name as string | null) ?? null,
  categoryId: (row.category_id as number | null) ?? null,
  categoryName: (row.category_name as string | null) ?? null,
  assigneeId: (row.assignee_id as number | null) ?? null,
  assigneeName: (row.assignee_name as string | null) ?? null,
  reporterId: (row.reporter_id as number | null) ?? null,
  reporterName: (row.reporter_name as string | null) ?? null,
  dueAt: (row.due_at as string | null) ?? null,
  resolvedAt: (row.resolved_at as string | null) ?? null,
  createdAt: row.created_at as string,
  updatedAt: row.updated_at as string,
  version: row.version as number,
});

const filters = (query: TicketListQuery) => {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    clauses.push(sql.replace('?', `?${params.length}`));
  };
  if (query.status) add('t.status = ?', query.status);
  if (query.priority) add('t.priority = ?', query.priority);
  if (query.companyId) add('t.company_id = ?', query.companyId);
  if (query.categoryId) add('t.category_id = ?', query.categoryId);
  if (query.assigneeId) add('t.assignee_id = ?', query.assigneeId);
  if (query.q) {
    const terms = searchTerms(query.q);
    if (terms.id !== null) add('t.id = ?', terms.id);
    else if (terms.match) add('t.id IN (SELECT rowid FROM tickets_fts WHERE tickets_fts MATCH ?)', terms.match);
  }
  return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
};

/** The SQL of one page of the ticket list and of its total, with their parameters. */
export const ticketListSql = (query: TicketListQuery) => {
  const { limit, offset } = pageWindow(query);
  const { where, params } = filters(query);
  const sort = (query.sort ?? '-createdAt') as string;
  const direction = sort.startsWith('-') ? 'DESC' : 'ASC';
  const orderBy = `${SORT_SQL[sort.replace(/^-/, '') as TicketSort]} ${direction}, t.id ${direction}`;
  return {
    page: `${SELECT} ${where} ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}`,
    total: `SELECT count(*) AS total FROM tickets t ${where}`,
    params,
  };
};

export const listTickets = async (db: D1Database, query: TicketListQuery) => {
  const sql = ticketListSql(query);
  const [rows, count] = await db.batch<Row>([
    db.prepare(sql.page).bind(...sql.params),
    db.prepare(sql.total).bind(...sql.params),
  ]);
  return pageOf(rows.results.map(toTicket), (count.results[0]?.total as number) ?? 0, query);
};

export const findTicket = async (db: D1Database, id: number) => {
  const row = await db.prepare(`${SELECT} WHERE t.id = ?1`).bind(id).first<Row>();
  return row ? toTicket(row) : null;
};

export const ticketExists = async (db: D1Database, id: number) =>
  (await db.prepare('SELECT 1 AS found FROM tickets WHERE id = ?1').bind(id).first()) !== null;

export const insertTicket = async (db: D1Database, payload: TicketPayload, reporterId: number, audit: AuditContext) => {
  await assertReferencesExist(db, payload);
  const resolvedAt = payload.status && CLOSED.includes(payload.status) ? new Date().toISOString() : undefined;
  const list = assignments({ ...payload, reporterId, resolvedAt }, COLUMNS);
  const [inserted] = await db.batch<Row>([db.prepare(insertSql('tickets', list)).bind(...valuesOf(list)), auditCreated(db, audit, AUDIT)]);
  return findTicket(db, inserted?.results[0]?.id as number) as Promise<Ticket>;
};

/**
 * Applies the given fields; moving to resolved or closed stamps resolved_at, reopening clears it.
 * With `version` (If-Match), only a ticket still at that version changes, else StaleVersion.
 */
export const updateTicket = async (db: D1Database, id: number, changes: TicketChanges, audit: AuditContext, version?: number) => {
  await assertReferencesExist(db, changes);
  const list = assignments(changes, COLUMNS);
  const set = [setSql(list, 3), `updated_at = ${NOW_SQL}`, VERSION_BUMP];
  if (changes.status) {
    set.push(
      CLOSED.includes(changes.status) ? `resolved_at = coalesce(resolved_at, ${NOW_SQL})` : 'resolved_at = NULL',
    );
  }
  const [, result] = await db.batch([
    auditUpdated(db, audit, { ...AUDIT, id, values: changes, version }),
    db
      .prepare(`UPDATE tickets SET ${set.filter(Boolean).join(', ')} WHERE id = ?1 AND ${versionMatches(2)}`)
      .bind(id, version ?? null, ...valuesOf(list)),
  ]);
  if ((result?.meta.changes ?? 0) > 0) return findTicket(db, id);
  // Nothing changed: the ticket has moved on from `version`, or there is no such ticket.
  unlessStale(await findTicket(db, id), version);
  return null;
};
