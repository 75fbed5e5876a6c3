import { utcDay } from '../../../shared/dates';
import type { TicketRequester } from '../../../shared/types';
import type { TicketChanges, TicketListQuery, TicketPayload, TicketSort } from '../../../shared/schemas/tickets';
import { listSql, readPage, type ListSpec } from './pagination';
import { auditCreated, auditUpdated, jsonColumn, type AuditContext, type AuditFields } from './audit';
import { assertReferencesExist } from './references';
import { TICKET_SELECT, toTicket, written, type TicketRow } from './rows';
import { searchTerms } from './search-terms';
import { ticketHitsSql } from './ticket-hits';
import { notifyAssigned, notifyMentioned, notifyStatus, watchTicket } from './ticket-notices';
import { queueNotificationMail } from './mail/notify';
import { mentionedIds } from '../../../shared/mentions';
import { NOW_SQL, assignments, insertSql, valuesOf, whereSql, type Condition } from './sql';
import { changesAny, unlessStale, updateRecord, versionMatches } from './versions';
import { ticketCreatedEvent, ticketUpdatedEvent } from './webhook-events';
import { SLA_DUE_SOON_HOURS } from '../../../shared/sla';
import { decideClock, policyRulesOf, POLICY_RULES_SQL, type ClockBefore, type PolicyRow, type SlaColumns } from './sla/clock';
import { refreshClock, refreshInsertedClock, slaBreachedSql, slaDueSoonSql } from './sla/clock-sql';

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
  // Tickets with no running clock sort after every due time.
  slaDueAt: "coalesce(t.sla_due_at, '9')",
};

const SLA_FILTER_SQL = {
  breached: slaBreachedSql('t'),
  due_soon: slaDueSoonSql('t', SLA_DUE_SOON_HOURS),
  paused: "(t.sla_policy_id IS NOT NULL AND t.status = 'on_hold')",
} as const;

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
    query.sla && SLA_FILTER_SQL[query.sla],
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

/** The reporter is the signed-in actor. `also` joins the batch (a received mail's own audit entry). */
/**
 * A new ticket, reported by the actor; or, with `requester`, opened by mail from a company's domain
 * (docs/architecture.md#mail): no reporter, and the text names nobody, since a stranger's mail may not
 * notify staff by mentioning them.
 */
export const insertTicket = async (db: D1Database, payload: TicketPayload, audit: AuditContext, also: D1PreparedStatement[] = [], requester?: TicketRequester) => {
  await assertReferencesExist(db, payload);
  const now = new Date();
  const resolvedAt = payload.status && CLOSED.includes(payload.status) ? now.toISOString() : undefined;
  const fields = { status: payload.status ?? 'open', priority: payload.priority ?? 'normal', company_id: payload.companyId ?? null, category_id: payload.categoryId ?? null };
  const clock = decideClock(null, fields, await policyRules(db), now);
  // Stamped here rather than by the column default, so the clock starts at the ticket's own creation time.
  const stamps = [{ column: 'created_at', value: now.toISOString() }, { column: 'updated_at', value: now.toISOString() }];
  const from = requester ? [{ column: 'requester_email', value: requester.email }, { column: 'requester_name', value: requester.name }] : [];
  const list = [...assignments({ ...payload, reporterId: requester ? null : audit.actorId, resolvedAt }, COLUMNS), ...stamps, ...from, ...clockAssignments(clock)];
  const mentioned = requester ? [] : mentionedIds(payload.description);
  const [inserted] = await db.batch<{ id: number }>([
    db.prepare(insertSql('tickets', list)).bind(...valuesOf(list)),
    refreshInsertedClock(db),
    auditCreated(db, audit, AUDIT),
    ticketCreatedEvent(db, audit),
    ...(payload.assigneeId ? [notifyAssigned(db, audit, null, payload.assigneeId)] : []),
    notifyMentioned(db, audit, null, mentioned),
    watchTicket(db, audit, null, [audit.actorId, payload.assigneeId, ...mentioned]),
    queueNotificationMail(db, audit.requestId),
    ...also,
  ]);
  return written(await findTicket(db, written(inserted?.results[0], 'ticket').id), 'ticket');
};

const policyRules = async (db: D1Database) => policyRulesOf(await db.prepare(POLICY_RULES_SQL).all<PolicyRow>());

const clockAssignments = (clock: SlaColumns) => Object.entries(clock).map(([column, value]) => ({ column, value: value as unknown }));

/** The fields a policy matches on and the status that pauses the clock: a change to any re-decides it. */
const CLOCK_FIELDS = ['status', 'priority', 'companyId', 'categoryId'] as const;

const CLOCK_BEFORE_SQL = `SELECT status, priority, company_id, category_id, created_at, version, sla_policy_id, sla_started_at,
    sla_first_response_due_at, sla_resolution_due_at, sla_first_response_warn_at, sla_resolution_warn_at, sla_paused_seconds, sla_paused_at, sla_alerts
  FROM tickets WHERE id = ?1`;

/** A write that re-decides the clock is guarded on the version it was decided from; another save in between tries again. */
const CLOCK_TRIES = 3;

/**
 * Applies the given fields; moving to resolved or closed stamps resolved_at, reopening clears it.
 * With `version` (If-Match), only a ticket still at that version changes, else StaleVersion.
 * A change to what the service-level clock depends on decides it again from the row as read, and
 * the UPDATE holds only if the row is still that version (docs/architecture.md#service-levels).
 */
export const updateTicket = async (db: D1Database, id: number, changes: TicketChanges, audit: AuditContext & { actorId: number }, version?: number) => {
  await assertReferencesExist(db, changes);
  // Without a clock to decide, the write is guarded by If-Match alone and never races.
  const unclocked = async () => {
    const written = await writeTicket(db, id, changes, audit, version, null);
    return written === RACED ? null : written;
  };
  if (!CLOCK_FIELDS.some((field) => changes[field] !== undefined)) return unclocked();
  for (let tried = 1; ; tried++) {
    const [read, rules] = await db.batch([db.prepare(CLOCK_BEFORE_SQL).bind(id), db.prepare(POLICY_RULES_SQL)]);
    const before = (read?.results[0] as (ClockBefore & { version: number }) | undefined) ?? null;
    const policies = policyRulesOf(rules as D1Result<PolicyRow>);
    if (!before || (before.sla_policy_id === null && policies.length === 0)) return unclocked();
    const after = {
      status: changes.status ?? before.status,
      priority: changes.priority ?? before.priority,
      company_id: changes.companyId === undefined ? before.company_id : changes.companyId,
      category_id: changes.categoryId === undefined ? before.category_id : changes.categoryId,
    };
    const clock = decideClock(before, after, policies, new Date());
    const written = await writeTicket(db, id, changes, audit, version, { clock, version: before.version });
    if (written !== RACED) return written;
    if (tried === CLOCK_TRIES) throw new Error(`ticket ${id} kept changing while its service-level clock was decided`);
  }
};

/** The answer of a clock-guarded write that lost to another save made after its read. */
const RACED = Symbol('raced');

const writeTicket = async (
  db: D1Database,
  id: number,
  changes: TicketChanges,
  audit: AuditContext & { actorId: number },
  version: number | undefined,
  decided: { clock: SlaColumns; version: number } | null,
) => {
  const resolved = changes.status && (CLOSED.includes(changes.status) ? `resolved_at = coalesce(resolved_at, ${NOW_SQL})` : 'resolved_at = NULL');
  // A status change by anyone but the reporter is a first response (docs/architecture.md#service-levels).
  const responded =
    changes.status &&
    ((bind: (value: unknown) => string) =>
      `sla_first_responded_at = coalesce(sla_first_responded_at, CASE WHEN reporter_id IS NOT ${bind(audit.actorId)} AND status IS NOT ${bind(changes.status)} THEN ${NOW_SQL} END)`);
  const clock = decided ? clockAssignments(decided.clock).map(({ column, value }) => (bind: (value: unknown) => string) => `${column} = ${bind(value)}`) : [];
  const where = [versionMatches(version ?? decided?.version)];
  const mentioned = mentionedIds(changes.description);
  // Notices read the row as it stands before the UPDATE, with its WHERE, as the audit entry does.
  const before = [
    auditUpdated(db, audit, { ...AUDIT, id, values: changes, where }),
    ...(changes.assigneeId ? [notifyAssigned(db, audit, id, changes.assigneeId, where)] : []),
    ...(changes.status ? [notifyStatus(db, audit, id, changes.status, where)] : []),
    ...(mentioned.length ? [notifyMentioned(db, audit, id, mentioned, where)] : []),
  ];
  const set = assignments(changes, COLUMNS);
  const computed = [...(resolved ? [resolved] : []), ...(responded ? [responded] : []), ...clock];
  const results = await db.batch([
    ...before,
    updateRecord(db, { table: 'tickets', id, set, computed, where: [...where, changesAny(set)] }),
    refreshClock(db, id),
    watchTicket(db, audit, id, [changes.assigneeId, ...mentioned], true),
    ticketUpdatedEvent(db, id, audit),
    queueNotificationMail(db, audit.requestId),
  ]);
  const result = results[before.length];
  if ((result?.meta.changes ?? 0) > 0) return findTicket(db, id);
  // Nothing changed: the ticket has moved on from `version`, there is no such ticket, or it
  // already held every value sent (then it is answered as it stands).
  const current = unlessStale(await findTicket(db, id), version);
  return decided && version === undefined && current && current.version !== decided.version ? RACED : current;
};
