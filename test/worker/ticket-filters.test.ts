import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, utcDay } from '../../src/shared/dates';
import type { DashboardSummary, Page, Ticket } from '../../src/shared/types';
import { api, expectError, readJson, signedIn, type TestUser } from './support';

// The list's `open`, `overdue` and `mine` filters: the dashboard's cards open them, so each must
// list exactly the tickets its card counts.
let admin: string;
let staff: { user: TestUser; token: string };
const tag = `flt${crypto.randomUUID().slice(0, 8)}`;
const today = utcDay();
let tickets: Record<string, Ticket>;

const list = async (query: string, token = admin) => {
  const res = await api(`tickets?${query}`, { token });
  const { status, body } = await readJson<Page<Ticket>>(res);
  expect(status).toBe(200);
  return body;
};
const titles = async (query: string, token = admin) =>
  (await list(`q=${tag}&pageSize=100&sort=title&${query}`, token)).items.map((t) => t.title.replace(`${tag} `, ''));

beforeAll(async () => {
  ({ token: admin } = await signedIn());
  staff = await signedIn('staff');
  const create = async (name: string, body: Record<string, unknown>) => {
    const res = await api('tickets', { method: 'POST', token: admin, json: { title: `${tag} ${name}`, ...body } });
    expect(res.status).toBe(201);
    return [name, (await res.json()) as Ticket] as const;
  };
  tickets = Object.fromEntries(
    await Promise.all([
      create('late', { dueAt: addDays(today, -1), assigneeId: staff.user.id }),
      create('late-time', { dueAt: `${addDays(today, -1)}T23:30:00Z`, status: 'on_hold' }),
      create('due-today', { dueAt: today, status: 'in_progress' }),
      create('due-later', { dueAt: addDays(today, 3), assigneeId: staff.user.id }),
      create('late-but-resolved', { dueAt: addDays(today, -5), status: 'resolved', assigneeId: staff.user.id }),
      create('no-due', {}),
    ]),
  );
});

describe('ticket list filters', () => {
  it('overdue: still open and due before today, whatever the due time', async () => {
    expect(await titles('overdue=true')).toEqual(['late', 'late-time']);
  });

  it('open: open, in progress or on hold', async () => {
    expect(await titles('open=true')).toEqual(['due-later', 'due-today', 'late', 'late-time', 'no-due']);
  });

  it('mine: assigned to the person asking, whoever that is', async () => {
    expect(await titles('mine=true', staff.token)).toEqual(['due-later', 'late', 'late-but-resolved']);
    expect(await titles('mine=true')).toEqual([]);
    expect(await titles('mine=true&open=true', staff.token)).toEqual(['due-later', 'late']);
    expect(await titles('mine=true&overdue=true', staff.token)).toEqual(['late']);
  });

  it('false (or 0) is no filter at all', async () => {
    const all = await titles('');
    expect(all).toHaveLength(Object.keys(tickets).length);
    expect(await titles('overdue=false&mine=0&open=false')).toEqual(all);
    expect(await titles('overdue=1')).toEqual(['late', 'late-time']);
  });

  it('the dashboard counts what its cards list', async () => {
    const [summary, overdue, open, mine] = await Promise.all([
      readJson<DashboardSummary>(await api('dashboard/summary', { token: staff.token })),
      list('overdue=true&pageSize=1', staff.token),
      list('open=true&pageSize=1', staff.token),
      list('open=true&mine=true&pageSize=1', staff.token),
    ]);
    expect(summary.body).toMatchObject({ overdue: overdue.total, openTickets: open.total, myOpenTickets: mine.total });
    expect(mine.total).toBe(2);
  });

  it.each([
    ['overdue', 'maybe'],
    ['overdue', ''],
    ['mine', 'yes'],
    ['open', '2'],
    ['mine', 'true,false'],
  ])('refuses %s=%j with 400 naming the field', async (field, value) => {
    // The same call with a good value works, so the 400 is about the value alone.
    expect((await api(`tickets?${field}=true`, { token: admin })).status).toBe(200);
    const body = await expectError(await api(`tickets?${field}=${encodeURIComponent(value)}`, { token: admin }), 400);
    expect(body.errors?.[field]).toEqual(['Must be true or false']);
  });

  it("overdue counts from the person's today when it is sent, in the list and on the dashboard alike", async () => {
    // Already tomorrow in Auckland: a ticket due today (UTC) is late there.
    const tomorrow = addDays(today, 1);
    expect(await titles(`overdue=true&today=${tomorrow}`)).toEqual(['due-today', 'late', 'late-time']);
    const [summary, overdue] = await Promise.all([
      readJson<DashboardSummary>(await api(`dashboard/summary?today=${tomorrow}`, { token: admin })),
      list(`overdue=true&today=${tomorrow}&pageSize=1`),
    ]);
    expect(summary.status).toBe(200);
    expect(summary.body.overdue).toBe(overdue.total);
  });

  it.each([
    ['tickets?overdue=true&today=', 'today'],
    ['dashboard/summary?today=', 'today'],
  ])('refuses a today that is no time zone\'s today (%s)', async (path, field) => {
    expect((await api(`${path}${addDays(today, -1)}`, { token: admin })).status).toBe(200);
    for (const [value, message] of [
      [addDays(today, 3), 'Must be today in some time zone'],
      [addDays(today, -2), 'Must be today in some time zone'],
      ['2026-02-30', 'Must be a real date'],
      ['tomorrow', 'Must be a date as YYYY-MM-DD'],
    ]) {
      const body = await expectError(await api(`${path}${value}`, { token: admin }), 400);
      expect(body.errors?.[field], value).toContain(message);
    }
  });
});
