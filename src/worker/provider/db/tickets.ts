import { utcDay } from '../../../shared/dates';
import type { TicketChanges, TicketListQuery, TicketPayload, TicketSort } from '../../../shared/schemas/tickets';
import { listSql, readPage, type ListSpec } from './pagination';
import { auditCreated, auditUpdated, jsonColumn, type AuditContext, type AuditFields } from './audit';
import { assertReferencesExist } from './references';
import { TICKET_SELECT, toTicket, written, type TicketRow } from './rows';
import { searchTerms } from './search-terms';
import { ticketHitsSql } from './ticket-hits';
import { notifyAssigned, notifyMentioned, notifyStatus, watchTicket } from './ticket-notices';
import { mentionedIds } from '../../../shared/mentions';
import { NOW_SQL, assignments, insertSql, valuesOf, whereSql, type Condition } from './sql';
import { changesAny, unlessStale, updateRecord, versionMatches } from './versions';
import { ticketCreatedEvent, ticketUpdatedEvent } from './webhook-events';

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

/** Still being worked on; the dashboard's counts and the list's filters share these conditions. */
export const OPEN_SQL = "t.status IN ('open', 'in_progress', 'on_hold')";
/** Open and due before `today` (UTC, a placeholder): a due time today is not late yet by this measure. */
export const overdueSql = (today: string) => `${OPEN_SQL} AND t.due_at < ${today}`;

/** The words of `q` as a condition: a ticket number, or a full-text match. */
const textFilter = (q: string): Condition | null => {
  const terms = searchTerms(q);
  if (terms.id !== null) return (bind) => `t.id = ${bind(terms.id)}`;
  if (terms.match) return (bind) => `t.id IN (${ticketHitsSql(bind(terms.match))})`;
  return null;
};

const filters = (query: TicketListQuery, userId: number) =>
  whereSql([
    query.status && ((bind) => `t.status = ${bind(query.status)}`),
    query.priority && ((bind) => `t.priority = ${bind(query.priority)}`),
    query.companyId && ((bind) => `t.company_id = ${bind(query.companyId)}`),
    query.categoryId && ((bind) => `t.category_id = ${bind(query.categoryId)}`),
    query.assigneeId && ((bind) => `t.assignee_id = ${bind(query.assigneeId)}`),
    query.mine && ((bind) => `t.assignee_id = ${bind(userId)}`),
    query.open && OPEN_SQL,
    query.overdue && ((bind) => overdueSql(bind(query.today ?? utcDay()))),
    query.q && textFilter(query.q),
  ]);

/** The SQL of one page of the ticket list and of its total, with their parameters. */
const ticketList = (query: TicketListQuery, userId: number): ListSpec => {
  const sort = (query.sort ?? '-createdAt') as string;
  const direction = sort.startsWith('-') ? 'DESC' : 'ASC';
  const orderBy = `${SORT_SQL[sort.replace(/^-/, '') as TicketSort]} ${direction}, t.id ${direction}`;
  return { select: TICKET_SELECT, counted: 'tickets t', orderBy, ...filters(query, userId) };
};

export const ticketListSql = (query: TicketListQuery, userId: number) => listSql(ticketList(query, userId), query);

/** One page of tickets; `userId`, the person asking, is whom `mine` means. */
export const listTickets = async (db: D1Database, query: TicketListQuery, userId: number) => {
  return (await readPage(db, ticketList(query, userId), query, (rows: TicketRow[]) => rows.map(toTicket))).page;
};

export const findTicket = async (db: D1Database, id: number) => {
  const row = await db.prepare(`${TICKET_SELECT} WHERE t.id = ?1`).bind(id).first<TicketRow>();
  return row ? toTicket(row) : null;
};

export const ticketExists = async (db: D1Database, id: number) =>
  (await db.prepare('SELECT 1 AS found FROM tickets WHERE id = ?1').bind(id).first()) !== null;

/** The reporter is the signed-in actor. */
export const insertTicket = async (db: D1Database, payload: TicketPayload, audit: AuditContext & { actorId: number }) => {
  await assertReferencesExist(db, payload);
  const resolvedAt = payload.status && CLOSED.includes(payload.status) ? new Date().toISOString() : undefined;
  const list = assignments({ ...payload, reporterId: audit.actorId, resolvedAt }, COLUMNS);
  const mentioned = mentionedIds(payload.description);
  const [inserted] = await db.batch<{ id: number }>([
    db.prepare(insertSql('tickets', list)).bind(...valuesOf(list)),
    auditCreated(db, audit, AUDIT),
    ticketCreatedEvent(db, audit),
    ...(payload.assigneeId ? [notifyAssigned(db, audit, null, payload.assigneeId)] : []),
    notifyMentioned(db, audit, null, mentioned),
    watchTicket(db, audit, null, [audit.actorId, payload.assigneeId, ...mentioned]),
  ]);
  return written(await findTicket(db, written(inserted?.results[0], 'ticket').id), 'ticket');
};

/**
 * Applies the given fields; moving to resolved or closed stamps resolved_at, reopening clears it.
 * With `version` (If-Match), only a ticket still at that version changes, else StaleVersion.
 */
export const updateTicket = async (db: D1Database, id: number, changes: TicketChanges, audit: AuditContext & { actorId: number }, version?: number) => {
  await assertReferencesExist(db, changes);
  const resolved = changes.status && (CLOSED.includes(changes.status) ? `resolved_at = coalesce(resolved_at, ${NOW_SQL})` : 'resolved_at = NULL');
  const where = [versionMatches(version)];
  const mentioned = mentionedIds(changes.description);
  // Notices read the row as it stands before the UPDATE, with its WHERE, as the audit entry does.
  const before = [
    auditUpdated(db, audit, { ...AUDIT, id, values: changes, where }),
    ...(changes.assigneeId ? [notifyAssigned(db, audit, id, changes.assigneeId, where)] : []),
    ...(changes.status ? [notifyStatus(db, audit, id, changes.status, where)] : []),
    ...(mentioned.length ? [notifyMentioned(db, audit, id, mentioned, where)] : []),
  ];
  const set = assignments(changes, COLUMNS);
  const results = await db.batch([
    ...before,
    updateRecord(db, { table: 'tickets', id, set, computed: resolved ? [resolved] : [], where: [...where, changesAny(set)] }),
    watchTicket(db, audit, id, [changes.assigneeId, ...mentioned], true),
    ticketUpdatedEvent(db, id, audit),
  ]);
  const result = results[before.length];
  if ((result?.meta.changes ?? 0) > 0) return findTicket(db, id);
  // Nothing changed: the ticket has moved on from `version`, there is no such ticket, or it
  // already held every value sent (then it is answered as it stands).
  return unlessStale(await findTicket(db, id), version);
};
