import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DashboardSummary, TicketReport, TimesheetReport } from '../../src/shared/types';
import { api, createUser, signedIn, type TestUser } from './support';

let token: string;
let me: TestUser;
let ann: TestUser;
let bob: TestUser;
const json = async <T>(res: Response) => (await res.json()) as T;

const insertTicket = async (fields: { created: string; resolved?: string; status?: string; assignee?: number; company?: number | null; due?: string }) =>
  (await env.DB.prepare(
    'INSERT INTO tickets (title, status, assignee_id, company_id, created_at, resolved_at, due_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) RETURNING id',
  )
    .bind('Report ticket', fields.status ?? (fields.resolved ? 'resolved' : 'open'), fields.assignee ?? null, fields.company ?? null, fields.created, fields.resolved ?? null, fields.due ?? null)
    .first<number>('id')) as number;

const logTime = (ticketId: number, userId: number, workDate: string, minutes: number, billable: boolean) =>
  env.DB.prepare('INSERT INTO time_entries (ticket_id, user_id, work_date, minutes, billable) VALUES (?1, ?2, ?3, ?4, ?5)')
    .bind(ticketId, userId, workDate, minutes, billable ? 1 : 0)
    .run();

beforeAll(async () => {
  ({ token, user: me } = await signedIn());
  ann = await createUser({ firstName: 'Ann', surname: 'Alpha' });
  bob = await createUser({ firstName: 'Bob', surname: 'Beta' });
});

describe('timesheet', () => {
  it.each([101, 1000])('names every one of %i people who logged time in the range', async (people) => {
    const ticket = await insertTicket({ created: '2041-01-01T00:00:00.000Z' });
    const tag = crypto.randomUUID().slice(0, 8);
    const rows = Array.from({ length: people }, (_, i) => `('Person', 'No${String(i).padStart(4, '0')}', 'p${i}-${tag}@example.com', 'x')`);
    const ids = (await env.DB.prepare(`INSERT INTO users (first_name, surname, email, password_hash) VALUES ${rows.join(', ')} RETURNING id`).all<{ id: number }>()).results.map((row) => row.id);
    const day = people === 101 ? '2041-03-02' : '2041-03-03';
    await env.DB.prepare(`INSERT INTO time_entries (ticket_id, user_id, work_date, minutes) SELECT ?1, value, ?2, 30 FROM json_each(?3)`).bind(ticket, day, JSON.stringify(ids)).run();
    const res = await api(`reports/timesheet?from=${day}&to=${day}`, { token });
    expect(res.status).toBe(200);
    const report = await json<TimesheetReport>(res);
    expect(report.users).toHaveLength(people);
    expect(report.users.map((user) => user.userName)).toEqual(ids.map((_, i) => `Person No${String(i).padStart(4, '0')}`));
    expect(report.totals.minutes).toBe(30 * people);
  });

  it('sums minutes per user per day, billable apart, inside the range only', async () => {
    const companyId = (await env.DB.prepare("INSERT INTO companies (name) VALUES ('Timesheet Co') RETURNING id").first<number>('id')) as number;
    const billed = await insertTicket({ created: '2040-01-01T00:00:00.000Z', company: companyId });
    const other = await insertTicket({ created: '2040-01-01T00:00:00.000Z' });
    await logTime(billed, ann.id, '2040-02-03', 45, true);
    await logTime(billed, ann.id, '2040-02-03', 30, false);
    await logTime(other, ann.id, '2040-02-04', 15, true);
    await logTime(billed, bob.id, '2040-02-04', 480, true);
    await logTime(billed, bob.id, '2040-02-10', 60, true);
    await logTime(billed, bob.id, '2040-01-31', 999, true);

    const report = await json<TimesheetReport>(await api('reports/timesheet?from=2040-02-01&to=2040-02-09', { token }));
    expect(report.totals).toEqual({ minutes: 570, billableMinutes: 540 });
    expect(report.users).toEqual([
      { userId: ann.id, userName: 'Ann Alpha', minutes: 90, billableMinutes: 60 },
      { userId: bob.id, userName: 'Bob Beta', minutes: 480, billableMinutes: 480 },
    ]);
    expect(report.days).toEqual([
      { workDate: '2040-02-03', minutes: 75, billableMinutes: 45 },
      { workDate: '2040-02-04', minutes: 495, billableMinutes: 495 },
    ]);
    expect(report.cells).toContainEqual({ userId: ann.id, workDate: '2040-02-03', minutes: 75, billableMinutes: 45 });

    const annOnly = await json<TimesheetReport>(await api(`reports/timesheet?from=2040-02-01&to=2040-02-09&userId=${ann.id}`, { token }));
    expect(annOnly.totals).toEqual({ minutes: 90, billableMinutes: 60 });
    const company = await json<TimesheetReport>(await api(`reports/timesheet?from=2040-02-01&to=2040-02-09&companyId=${companyId}`, { token }));
    expect(company.totals).toEqual({ minutes: 555, billableMinutes: 525 });
  });

  it.each([
    'from=2040-02-01',
    'from=2040-02-10&to=2040-02-01',
    'from=2040-02-30&to=2040-03-01',
    'from=2039-01-01&to=2040-06-01',
    'from=yesterday&to=today',
    'from=2040-02-01&to=2040-02-02&userId=abc',
  ])('answers 400 for %s', async (query) => {
    const res = await api(`reports/timesheet?${query}`, { token });
    expect(res.status).toBe(400);
    expect(await json(res)).toHaveProperty('message');
  });
});

describe('ticket report', () => {
  it('counts by group, charts opened against resolved, and takes the median time to resolve', async () => {
    await insertTicket({ created: '2041-03-01T10:00:00.000Z', resolved: '2041-03-01T12:00:00.000Z', assignee: ann.id });
    await insertTicket({ created: '2041-03-02T10:00:00.000Z', resolved: '2041-03-03T10:00:00.000Z', assignee: ann.id });
    await insertTicket({ created: '2041-03-02T00:00:00.000Z', resolved: '2041-03-04T00:00:00.000Z', assignee: bob.id });
    await insertTicket({ created: '2041-03-03T09:00:00.000Z', assignee: bob.id });
    await insertTicket({ created: '2041-03-03T09:00:00.000Z' });
    await insertTicket({ created: '2041-02-27T09:00:00.000Z' });

    const report = await json<TicketReport>(await api('reports/tickets?from=2041-03-01&to=2041-03-05&groupBy=assignee', { token }));
    expect(report.groups).toEqual([
      { key: String(ann.id), label: 'Ann Alpha', count: 2 },
      { key: String(bob.id), label: 'Bob Beta', count: 2 },
      { key: 'none', label: 'Unassigned', count: 1 },
    ]);
    expect(report.bucket).toBe('day');
    expect(report.series).toEqual([
      { bucket: '2041-03-01', opened: 1, resolved: 1 },
      { bucket: '2041-03-02', opened: 2, resolved: 0 },
      { bucket: '2041-03-03', opened: 2, resolved: 1 },
      { bucket: '2041-03-04', opened: 0, resolved: 1 },
      { bucket: '2041-03-05', opened: 0, resolved: 0 },
    ]);
    expect(report.totals).toEqual({ opened: 5, resolved: 3 });
    expect(report.medianResolveHours).toBe(24);

    const byStatus = await json<TicketReport>(await api('reports/tickets?from=2041-03-01&to=2041-03-05&groupBy=status', { token }));
    expect(byStatus.groups).toEqual([
      { key: 'resolved', label: 'resolved', count: 3 },
      { key: 'open', label: 'open', count: 2 },
    ]);
  });

  it('buckets by month over long ranges and averages the middle pair for an even count', async () => {
    await insertTicket({ created: '2042-01-10T00:00:00.000Z', resolved: '2042-01-10T01:00:00.000Z' });
    await insertTicket({ created: '2042-03-10T00:00:00.000Z', resolved: '2042-03-10T04:00:00.000Z' });
    const report = await json<TicketReport>(await api('reports/tickets?from=2042-01-01&to=2042-06-30', { token }));
    expect(report.bucket).toBe('month');
    expect(report.series.map((s) => s.bucket)).toEqual(['2042-01', '2042-02', '2042-03', '2042-04', '2042-05', '2042-06']);
    expect(report.series.find((s) => s.bucket === '2042-03')).toEqual({ bucket: '2042-03', opened: 1, resolved: 1 });
    expect(report.medianResolveHours).toBe(2.5);
  });

  it('answers 400 for an unknown grouping', async () => {
    expect((await api('reports/tickets?from=2042-01-01&to=2042-01-02&groupBy=password', { token })).status).toBe(400);
  });
});

describe('dashboard summary', () => {
  it('counts what the cards show', async () => {
    const before = await json<DashboardSummary>(await api('dashboard/summary', { token }));
    const now = new Date();
    const yesterday = new Date(now.getTime() - 86_400_000).toISOString();
    await insertTicket({ created: yesterday, assignee: me.id, due: '2000-01-01' });
    await insertTicket({ created: yesterday, status: 'closed', resolved: now.toISOString() });
    const ticket = await insertTicket({ created: yesterday, status: 'in_progress' });
    await logTime(ticket, me.id, now.toISOString().slice(0, 10), 50, true);
    await env.DB.prepare("INSERT INTO invoice_lines (source, period, quantity, unit_price_cents, amount_cents, status) VALUES ('autofi', '2040-01', 2, 1234, 2468, 'approved'), ('autofi', '2040-01', 1, 9999, 9999, 'invoiced')").run();

    const after = await json<DashboardSummary>(await api('dashboard/summary', { token }));
    expect(after.openTickets - before.openTickets).toBe(2);
    expect(after.myOpenTickets - before.myOpenTickets).toBe(1);
    expect(after.overdue - before.overdue).toBe(1);
    expect(after.resolvedLast7Days - before.resolvedLast7Days).toBe(1);
    expect(after.minutesThisWeek - before.minutesThisWeek).toBe(50);
    expect(after.unbilledCents - before.unbilledCents).toBe(2468);
    expect(after.recentTickets.length).toBeGreaterThan(0);
    expect(after.openedVsResolved).toHaveLength(30);
    expect(after.openedVsResolved.at(-1)?.day).toBe(now.toISOString().slice(0, 10));
  });
});
