import { pathToFileURL } from 'node:url';
import { hashPassword } from '../src/worker/provider/auth/password';
import { insertRows } from '../src/worker/provider/db/bulk';
import { nameKey } from '../src/shared/schemas/text';
import { withLocalEnv } from './local-env';
import { seededRandom, type Random } from './demo/random';
import { billDemoStatements } from './demo/statements';
import { CATEGORIES, COMMENTS, COMPANIES, FIRST_NAMES, GIFS_COMPANY, LINE_TEMPLATES, PROBLEMS, SUBJECTS, SURNAMES, TIME_NOTES } from './demo/vocabulary';
import { DAY_MS, formatDay } from '../src/shared/dates';

const STATUSES = [['open', 3], ['in_progress', 2], ['on_hold', 1], ['resolved', 5], ['closed', 4]] as const;
const PRIORITIES = [['low', 2], ['normal', 5], ['high', 2], ['urgent', 1]] as const;

export const DEMO_USER_PASSWORD = 'demo-user';
// Two demo users are billing; the rest are staff. These accounts are always active, so `npm start`
// can print one sign-in of each role (DEMO_STAFF_EMAIL is the ordinary user of the issues).
export const DEMO_BILLING_EMAILS = ['chloe.carter@example.com', 'daniel.dlamini@example.com'];
export const DEMO_STAFF_EMAIL = 'ben.banda@example.com';

const iso = (ms: number) => new Date(ms).toISOString();
const day = (ms: number) => formatDay(ms);

const ids = async (db: D1Database, table: string) =>
  (await db.prepare(`SELECT id FROM ${table} ORDER BY id`).all<{ id: number }>()).results.map((row) => row.id);

const demoTicket = (random: Random, now: number, refs: { users: number[]; companies: number[]; categories: number[] }) => {
  const created = now - random.int(0, 364) * DAY_MS - random.int(0, DAY_MS - 1);
  const picked = random.weighted(STATUSES);
  const resolvedAt = created + random.int(1, 14 * 24) * 3_600_000;
  // A ticket cannot have been resolved in the future: a recent one is still being worked on.
  const status = (picked === 'resolved' || picked === 'closed') && resolvedAt > now ? 'in_progress' : picked;
  const resolved = status === 'resolved' || status === 'closed' ? resolvedAt : null;
  return {
    created,
    values: [
      `${random.pick(SUBJECTS)} ${random.pick(PROBLEMS)}`,
      `Reported by phone. ${random.pick(COMMENTS)}`,
      status,
      random.weighted(PRIORITIES),
      random.pick(refs.companies),
      random.pick(refs.categories),
      random.chance(0.9) ? random.pick(refs.users) : null,
      random.pick(refs.users),
      random.chance(0.6) ? day(created + random.int(1, 21) * DAY_MS) : null,
      resolved === null ? null : iso(resolved),
      iso(created),
      iso(resolved ?? Math.min(now, created + random.int(0, 5) * DAY_MS)),
    ],
  };
};

/**
 * The everyday demo set: about 25 users, 15 companies, 8 categories and 2,000 tickets with
 * comments and time entries over the last 12 months. Demo users sign in with DEMO_USER_PASSWORD.
 */
export const fillDemoData = async (db: D1Database, { tickets = 2000, seed = 20261122 } = {}) => {
  const random = seededRandom(seed);
  const now = Date.now();
  const userHash = await hashPassword(DEMO_USER_PASSWORD);

  const people = FIRST_NAMES.slice(0, 24).map((first, i) => [first, SURNAMES[i] ?? 'Smith'] as const);
  await db.batch([
    ...people.map(([first, last]) => {
      const email = `${first}.${last}@example.com`.toLowerCase();
      const billing = DEMO_BILLING_EMAILS.includes(email);
      const active = random.chance(0.92) || billing || email === DEMO_STAFF_EMAIL;
      return db
        .prepare('INSERT OR IGNORE INTO users (first_name, surname, email, password_hash, is_active, role) VALUES (?1, ?2, ?3, ?4, ?5, ?6)')
        .bind(first, last, email, userHash, active ? 1 : 0, billing ? 'billing' : 'staff');
    }),
    ...COMPANIES.map(([name, code]) =>
      db
        .prepare('INSERT OR IGNORE INTO companies (name, name_key, code, email, phone, address) VALUES (?1, ?2, ?3, ?4, ?5, ?6)')
        .bind(name, nameKey(name), code, `accounts@${code.toLowerCase()}.example`, `+27 21 555 ${String(random.int(1000, 9999))}`, `${random.int(1, 200)} Main Road\nCape Town 8001`),
    ),
    ...CATEGORIES.map(([name, description]) =>
      db.prepare('INSERT OR IGNORE INTO ticket_categories (name, name_key, description) VALUES (?1, ?2, ?3)').bind(name, nameKey(name), description),
    ),
  ]);

  const refs = { users: await ids(db, 'users'), companies: await ids(db, 'companies'), categories: await ids(db, 'ticket_categories') };
  const firstTicketId = ((await db.prepare('SELECT max(id) AS m FROM tickets').first<number>('m')) ?? 0) + 1;
  const made = Array.from({ length: tickets }, (_, i) => ({ id: firstTicketId + i, ...demoTicket(random, now, refs) }));
  await insertRows(
    db,
    'tickets',
    ['id', 'title', 'description', 'status', 'priority', 'company_id', 'category_id', 'assignee_id', 'reporter_id', 'due_at', 'resolved_at', 'created_at', 'updated_at'],
    made.map((ticket) => [ticket.id, ...ticket.values]),
  );

  const comments: unknown[][] = [];
  const timeEntries: unknown[][] = [];
  for (const ticket of made) {
    const span = Math.max(1, now - ticket.created);
    for (let c = random.int(0, 4); c > 0; c--) {
      const at = iso(ticket.created + random.next() * span);
      comments.push([ticket.id, random.pick(refs.users), random.pick(COMMENTS), at, at]);
    }
    for (let e = random.int(0, 6); e > 0; e--) {
      const at = ticket.created + random.next() * Math.min(span, 30 * DAY_MS);
      timeEntries.push([ticket.id, random.pick(refs.users), day(at), 15 * random.int(1, 16), random.pick(TIME_NOTES), random.chance(0.75) ? 1 : 0, iso(at), iso(at)]);
    }
  }
  await insertRows(db, 'ticket_comments', ['ticket_id', 'user_id', 'body', 'created_at', 'updated_at'], comments);
  await insertRows(db, 'time_entries', ['ticket_id', 'user_id', 'work_date', 'minutes', 'note', 'billable', 'created_at', 'updated_at'], timeEntries);
  await fillTicketHistory(db, firstTicketId);
  const invoices = await fillInvoiceDemo(db, random, refs.companies);
  return { tickets: made.length, comments: comments.length, timeEntries: timeEntries.length, ...invoices };
};

/**
 * The audit entries the demo tickets would have left had they been made through the app, so their
 * History sections are not empty: each ticket opened by its reporter, resolved or closed by its
 * assignee, and its comments and time entries, at the times the demo data gives them.
 */
// `{ field: [null, value] }` for each column with a value, as the app's own create entries read.
const createdJson = (fields: Record<string, string>) =>
  `json_patch('{}', json_object(${Object.entries(fields)
    .map(([field, value]) => `'${field}', json(CASE WHEN ${value} IS NULL THEN NULL ELSE json_array(NULL, ${value}) END)`)
    .join(', ')}))`;

const fillTicketHistory = (db: D1Database, firstTicketId: number) =>
  db.batch([
    db
      .prepare(
        `INSERT INTO audit_log (at, actor_id, action, entity, entity_id, changes)
         SELECT created_at, reporter_id, 'create', 'ticket', id, ${createdJson({
           title: 'title',
           description: 'description',
           status: "'open'",
           priority: 'priority',
           companyId: 'company_id',
           categoryId: 'category_id',
           assigneeId: 'assignee_id',
           reporterId: 'reporter_id',
           dueAt: 'due_at',
         })}
         FROM tickets WHERE id >= ?1`,
      )
      .bind(firstTicketId),
    db
      .prepare(
        `INSERT INTO audit_log (at, actor_id, action, entity, entity_id, changes)
         SELECT resolved_at, coalesce(assignee_id, reporter_id), 'update', 'ticket', id, json_object('status', json_array('open', status))
         FROM tickets WHERE id >= ?1 AND resolved_at IS NOT NULL`,
      )
      .bind(firstTicketId),
    db
      .prepare(
        `INSERT INTO audit_log (at, actor_id, action, entity, entity_id, changes)
         SELECT created_at, user_id, 'comment', 'ticket', ticket_id, ${createdJson({ body: 'body' })}
         FROM ticket_comments WHERE ticket_id >= ?1`,
      )
      .bind(firstTicketId),
    db
      .prepare(
        `INSERT INTO audit_log (at, actor_id, action, entity, entity_id, changes)
         SELECT created_at, user_id, 'time', 'ticket', ticket_id, ${createdJson({
           workDate: 'work_date',
           minutes: 'minutes',
           note: 'note',
           billable: "json(CASE billable WHEN 1 THEN 'true' ELSE 'false' END)",
         })}
         FROM time_entries WHERE ticket_id >= ?1`,
      )
      .bind(firstTicketId),
  ]);

const periodsBack = (count: number, now = new Date()) =>
  Array.from({ length: count }, (_, i) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1)).toISOString().slice(0, 7));

/**
 * A year of invoice lines for each contract, and GIFS statements for every month but the last
 * two, issued and paid over the year as a real ledger's were (demo/statements.ts). Other
 * contracts have no statements, so their lines stop at approved.
 */
const fillInvoiceDemo = async (db: D1Database, random: Random, companies: number[]) => {
  const gifs = await db.prepare('SELECT id FROM companies WHERE name = ?1').bind(GIFS_COMPANY).first<number>('id');
  const periods = periodsBack(12);
  const rows: unknown[][] = [];
  for (const [index, period] of periods.entries()) {
    for (const [source, templates] of Object.entries(LINE_TEMPLATES)) {
      const isGifs = source.startsWith('gifs');
      const count = isGifs ? templates.length : random.int(4, 9);
      for (let n = 0; n < count; n++) {
        const [description, [qMin, qMax], [pMin, pMax]] = isGifs ? templates[n]! : random.pick(templates);
        const quantity = random.int(qMin, qMax);
        const price = random.int(pMin, pMax);
        const status = isGifs || index >= 1 ? 'approved' : 'draft';
        const company = isGifs ? gifs : random.pick(companies);
        rows.push([source, company, period, description, quantity, price, quantity * price, `${source.toUpperCase()}-${period}-${n + 1}`, status]);
      }
    }
  }
  await insertRows(db, 'invoice_lines', ['source', 'company_id', 'period', 'description', 'quantity', 'unit_price_cents', 'amount_cents', 'reference', 'status'], rows);
  return { invoiceLines: rows.length, statements: await billDemoStatements(db, periods.slice(2), random) };
};

/**
 * Every 50th scale ticket carries a pasted log: 80 lines, about 6,000 characters, as people paste
 * them, so backups and restores at scale carry long multi-line text too.
 */
const PASTED_LOG = `CASE WHEN i % 50 = 0 THEN replace(printf('%.*c', 80, 'x'), 'x', 'ERROR 2026-11-26T14:02:11Z worker[' || i || '] request failed: upstream timed out after 10000 ms' || char(13) || char(10)) ELSE '' END`;

/**
 * Benchmark scale: tops the database up to 100,000 tickets, 1,000,000 time entries and 1,000,000
 * audit entries (ticket histories, about ten per ticket), generated inside SQLite so it takes
 * seconds rather than a million round trips.
 */
export const fillScaleData = async (db: D1Database, { tickets = 100_000, timeEntries = 1_000_000, auditEntries = 1_000_000 } = {}) => {
  const count = async (table: string) => (await db.prepare(`SELECT count(*) AS n FROM ${table}`).first<number>('n')) ?? 0;
  // A random existing id per row: the first id at or above a random point in the table's range.
  // `i * 0` ties the subquery to the row, or SQLite would evaluate it once for all rows.
  const randomId = (table: string) =>
    `(SELECT id FROM ${table} WHERE id >= (SELECT min(id) FROM ${table}) + (abs(random()) + i * 0) % ((SELECT max(id) - min(id) + 1 FROM ${table})) ORDER BY id LIMIT 1)`;
  const chunk = 50_000;
  for (let missing = tickets - (await count('tickets')); missing > 0; missing -= chunk) {
    await db
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
         INSERT INTO tickets (title, description, status, priority, company_id, category_id, assignee_id, reporter_id, created_at, updated_at)
         SELECT 'Scale ticket ' || i, ${PASTED_LOG},
           CASE abs(random()) % 5 WHEN 0 THEN 'open' WHEN 1 THEN 'in_progress' WHEN 2 THEN 'on_hold' WHEN 3 THEN 'resolved' ELSE 'closed' END,
           CASE abs(random()) % 4 WHEN 0 THEN 'low' WHEN 1 THEN 'normal' WHEN 2 THEN 'high' ELSE 'urgent' END,
           ${randomId('companies')}, ${randomId('ticket_categories')}, ${randomId('users')}, ${randomId('users')},
           strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || (abs(random()) % 31536000) || ' seconds'),
           strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         FROM n`,
      )
      .bind(Math.min(chunk, missing))
      .run();
  }
  for (let missing = timeEntries - (await count('time_entries')); missing > 0; missing -= chunk) {
    await db
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
         INSERT INTO time_entries (ticket_id, user_id, work_date, minutes, note, billable)
         SELECT ${randomId('tickets')}, ${randomId('users')},
           date('now', '-' || (abs(random()) % 365) || ' days'),
           15 * (1 + abs(random()) % 16), '', abs(random()) % 4 > 0
         FROM n`,
      )
      .bind(Math.min(chunk, missing))
      .run();
  }
  for (let missing = auditEntries - (await count('audit_log')); missing > 0; missing -= chunk) {
    await db
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
         INSERT INTO audit_log (at, actor_id, action, entity, entity_id, changes)
         SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || (abs(random()) % 31536000) || ' seconds'), ${randomId('users')},
           CASE abs(random()) % 4 WHEN 0 THEN 'update' WHEN 1 THEN 'comment' WHEN 2 THEN 'time' ELSE 'update' END,
           'ticket', ${randomId('tickets')}, '{"status":["open","in_progress"]}'
         FROM n`,
      )
      .bind(Math.min(chunk, missing))
      .run();
  }
  return { tickets: await count('tickets'), timeEntries: await count('time_entries'), auditEntries: await count('audit_log') };
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const scale = process.argv.includes('--scale');
  const result = await withLocalEnv(async (env) => (scale ? fillScaleData(env.DB) : fillDemoData(env.DB)));
  console.log(
    scale
      ? `Scale data: ${result.tickets} tickets, ${'timeEntries' in result ? result.timeEntries : 0} time entries and ${'auditEntries' in result ? result.auditEntries : 0} audit entries.`
      : `Demo data added: ${JSON.stringify(result)}.`,
  );
}
