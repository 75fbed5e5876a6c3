import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page, Ticket, TicketComment, TimeEntry } from '../../src/shared/types';
import { api, createUser, signedIn, type TestUser } from './support';

let token: string;
let me: TestUser;
let other: TestUser;
let companyId: number;
let categoryId: number;

const json = async <T>(res: Response) => (await res.json()) as T;
const create = async (body: Record<string, unknown>) => {
  const res = await api('tickets', { method: 'POST', token, json: body });
  expect(res.status).toBe(201);
  return json<Ticket>(res);
};
const list = async (query: string) => {
  const res = await api(`tickets?${query}`, { token });
  expect(res.status).toBe(200);
  return json<Page<Ticket>>(res);
};

beforeAll(async () => {
  ({ token, user: me } = await signedIn());
  other = await createUser({ firstName: 'Olga', surname: 'Other' });
  companyId = (await json<{ id: number }>(await api('companies', { method: 'POST', token, json: { name: 'Tickets Co' } }))).id;
  categoryId = (await json<{ id: number }>(await api('ticket-categories', { method: 'POST', token, json: { name: 'Hardware' } }))).id;
});

describe('tickets', () => {
  it('creates a ticket with names joined in and the caller as reporter', async () => {
    const ticket = await create({ title: 'Printer on fire', companyId, categoryId, assigneeId: other.id, priority: 'urgent', dueAt: '2026-12-01' });
    expect(ticket).toMatchObject({
      title: 'Printer on fire',
      status: 'open',
      priority: 'urgent',
      companyName: 'Tickets Co',
      categoryName: 'Hardware',
      assigneeName: 'Olga Other',
      reporterId: me.id,
      dueAt: '2026-12-01',
      resolvedAt: null,
    });
    expect(await json(await api(`tickets/${ticket.id}`, { token }))).toEqual(ticket);
  });

  it('filters by every filter, searches, sorts and pages', async () => {
    // Letters first: a search of digits alone is read as a ticket number.
    const tag = `tag${crypto.randomUUID().slice(0, 8)}`;
    const low = await create({ title: `${tag} low`, priority: 'low', companyId });
    const high = await create({ title: `${tag} high`, priority: 'high', categoryId, assigneeId: other.id });
    const done = await create({ title: `${tag} done`, priority: 'normal', status: 'resolved' });

    expect((await list(`q=${tag}`)).total).toBe(3);
    expect((await list(`q=${tag}&priority=high`)).items.map((t) => t.id)).toEqual([high.id]);
    expect((await list(`q=${tag}&status=resolved`)).items.map((t) => t.id)).toEqual([done.id]);
    expect((await list(`q=${tag}&companyId=${companyId}`)).items.map((t) => t.id)).toEqual([low.id]);
    expect((await list(`q=${tag}&categoryId=${categoryId}`)).items.map((t) => t.id)).toEqual([high.id]);
    expect((await list(`q=${tag}&assigneeId=${other.id}`)).items.map((t) => t.id)).toEqual([high.id]);
    expect((await list(`q=%23${low.id}`)).items.map((t) => t.id)).toEqual([low.id]);
    expect((await list(`q=${tag}&sort=priority`)).items.map((t) => t.priority)).toEqual(['low', 'normal', 'high']);
    expect((await list(`q=${tag}&sort=-priority`)).items.map((t) => t.priority)).toEqual(['high', 'normal', 'low']);
    expect((await list(`q=${tag}&sort=id`)).items.map((t) => t.id)).toEqual([low.id, high.id, done.id]);

    const page2 = await list(`q=${tag}&sort=id&page=2&pageSize=2`);
    expect(page2).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(page2.items.map((t) => t.id)).toEqual([done.id]);
  });

  it.each([
    'status=nope',
    'priority=extreme',
    'companyId=abc',
    'assigneeId=-1',
    'sort=password_hash',
    'sort=createdAt;DROP TABLE tickets',
    'page=0',
    'pageSize=500',
  ])('answers 400 for the filter %s', async (query) => {
    const res = await api(`tickets?${query}`, { token });
    expect(res.status).toBe(400);
    expect(await json(res)).toHaveProperty('message');
  });

  it('stamps resolved_at when resolved and clears it when reopened', async () => {
    const ticket = await create({ title: 'Resolve me' });
    const resolved = await json<Ticket>(await api(`tickets/${ticket.id}`, { method: 'PATCH', token, json: { status: 'resolved' } }));
    expect(resolved.resolvedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    const closed = await json<Ticket>(await api(`tickets/${ticket.id}`, { method: 'PATCH', token, json: { status: 'closed' } }));
    expect(closed.resolvedAt).toBe(resolved.resolvedAt);
    const reopened = await json<Ticket>(await api(`tickets/${ticket.id}`, { method: 'PATCH', token, json: { status: 'open', assigneeId: null } }));
    expect(reopened).toMatchObject({ status: 'open', resolvedAt: null, assigneeId: null, title: 'Resolve me' });
  });

  it.each([
    ['missing title', {}],
    ['unknown status', { title: 'x', status: 'done' }],
    ['unknown company', { title: 'x', companyId: 999_999 }],
    ['unknown assignee', { title: 'x', assigneeId: 999_999 }],
    ['fractional company', { title: 'x', companyId: 1.5 }],
    ['string company', { title: 'x', companyId: '1' }],
    ['impossible due date', { title: 'x', dueAt: '2026-02-30' }],
    ['due date in another format', { title: 'x', dueAt: '01/02/2026' }],
    ['unknown field', { title: 'x', secret: true }],
    ['array body', [{ title: 'x' }]],
  ])('answers 400 for %s and stores nothing', async (_label, body) => {
    const before = await env.DB.prepare('SELECT count(*) AS n FROM tickets').first('n');
    const res = await api('tickets', { method: 'POST', token, json: body });
    expect(res.status).toBe(400);
    expect(await json(res)).toHaveProperty('message');
    expect(await env.DB.prepare('SELECT count(*) AS n FROM tickets').first('n')).toBe(before);
  });

  it('changes nothing, version and updatedAt included, for a PATCH of the values it holds', async () => {
    const ticket = await create({ title: 'Same again', priority: 'high', companyId, description: 'As it was' });
    const entries = async () => (await env.DB.prepare("SELECT count(*) AS n FROM audit_log WHERE entity = 'ticket' AND entity_id = ?1").bind(ticket.id).first<number>('n')) ?? 0;
    const before = await entries();
    const same = { title: 'Same again', priority: 'high', companyId, description: 'As it was', status: 'open' };
    const variants: Record<string, string>[] = [{}, { 'if-match': `"${ticket.version}"` }];
    for (const headers of variants) {
      const res = await api(`tickets/${ticket.id}`, { method: 'PATCH', token, headers, json: same });
      expect(res.status).toBe(200);
      expect(await json<Ticket>(res)).toMatchObject({ version: ticket.version, updatedAt: ticket.updatedAt });
    }
    expect((await api(`tickets/${ticket.id}`, { method: 'PATCH', token, json: {} })).status).toBe(200);
    expect(await entries()).toBe(before);
    // So a save made from the version read before still lands.
    const edited = await api(`tickets/${ticket.id}`, { method: 'PATCH', token, headers: { 'if-match': `"${ticket.version}"` }, json: { title: 'Changed' } });
    expect(edited.status).toBe(200);
    expect(await json<Ticket>(edited)).toMatchObject({ title: 'Changed', version: ticket.version + 1 });
  });

  it('answers 404 for unknown tickets everywhere', async () => {
    for (const [path, init] of [
      ['tickets/999999', {}],
      ['tickets/999999', { method: 'PATCH', json: { title: 'x' } }],
      ['tickets/999999/comments', {}],
      ['tickets/999999/comments', { method: 'POST', json: { body: 'x' } }],
      ['tickets/999999/time-entries', { method: 'POST', json: { workDate: '2026-01-05', minutes: 30 } }],
    ] as const) {
      expect((await api(path, { ...init, token })).status).toBe(404);
    }
  });
});

describe('comments and time entries', () => {
  it('adds comments and time in order, with the author named', async () => {
    const ticket = await create({ title: 'Chatty' });
    for (const body of ['First', 'Second\nwith a line break']) {
      expect((await api(`tickets/${ticket.id}/comments`, { method: 'POST', token, json: { body } })).status).toBe(201);
    }
    const comments = await json<{ items: TicketComment[] }>(await api(`tickets/${ticket.id}/comments`, { token }));
    expect(comments.items.map((c) => [c.body, c.userId, c.userName])).toEqual([
      ['First', me.id, `${me.firstName} ${me.surname}`],
      ['Second\nwith a line break', me.id, `${me.firstName} ${me.surname}`],
    ]);

    const logged = await api(`tickets/${ticket.id}/time-entries`, {
      method: 'POST',
      token,
      json: { workDate: '2026-03-02', minutes: 95, note: 'Diagnosis', billable: false },
    });
    expect(logged.status).toBe(201);
    expect(await json(logged)).toMatchObject({ minutes: 95, billable: false, workDate: '2026-03-02', userId: me.id });
    const entries = await json<{ items: TimeEntry[] }>(await api(`tickets/${ticket.id}/time-entries`, { token }));
    expect(entries.items.map((e) => e.minutes)).toEqual([95]);
  });

  it.each([
    [{ workDate: '2026-13-01', minutes: 30 }],
    [{ workDate: '2026-02-29', minutes: 30 }],
    [{ workDate: '2026-01-05', minutes: 0 }],
    [{ workDate: '2026-01-05', minutes: 1441 }],
    [{ workDate: '2026-01-05', minutes: 12.5 }],
    [{ workDate: '2026-01-05', minutes: '30' }],
    [{ workDate: '2026-01-05', minutes: '1h 30m' }],
    [{ workDate: '2026-01-05', minutes: '1:30' }],
    [{ workDate: '2026-01-05', minutes: '130abc' }],
    [{ workDate: '2026-01-05' }],
    [{ minutes: 30 }],
  ])('refuses the time entry %j', async (body) => {
    const ticket = await create({ title: 'Timed' });
    const res = await api(`tickets/${ticket.id}/time-entries`, { method: 'POST', token, json: body });
    expect(res.status).toBe(400);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM time_entries WHERE ticket_id = ?1').bind(ticket.id).first('n')).toBe(0);
  });

  it('refuses a duration sent as text, naming the minutes to send rather than storing 130', async () => {
    const ticket = await create({ title: 'Typed duration' });
    const res = await api(`tickets/${ticket.id}/time-entries`, { method: 'POST', token, json: { workDate: '2026-01-05', minutes: '1h 30m' } });
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ errors: { minutes: ['Must be a number of minutes: 90 for "1h 30m"'] } });
    const garbled = await api(`tickets/${ticket.id}/time-entries`, { method: 'POST', token, json: { workDate: '2026-01-05', minutes: '130abc' } });
    expect(await json(garbled)).toMatchObject({ errors: { minutes: ['Must be a number of minutes, such as 90'] } });
    expect(await env.DB.prepare('SELECT count(*) AS n FROM time_entries WHERE ticket_id = ?1').bind(ticket.id).first('n')).toBe(0);
  });

  it('refuses an empty comment', async () => {
    const ticket = await create({ title: 'Quiet' });
    expect((await api(`tickets/${ticket.id}/comments`, { method: 'POST', token, json: { body: '  ' } })).status).toBe(400);
  });
});
