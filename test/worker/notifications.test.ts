import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { mentionToken } from '../../src/shared/mentions';
import type { Notification, NotificationPage, Ticket, TicketWatchers } from '../../src/shared/types';
import { connect, isType } from './live-socket';
import { api, createUser, expectError, login, readJson, type TestUser } from './support';

const person = async (firstName: string, role: 'staff' | 'billing' | 'admin' = 'staff') => {
  const user = await createUser({ firstName, surname: 'Notified', role });
  return { ...user, token: await login(user) };
};
type Person = TestUser & { token: string };

const notificationsOf = async (who: Person, query = '') => (await readJson<NotificationPage>(await api(`notifications${query}`, { token: who.token }))).body;
const createTicket = async (who: Person, json: Record<string, unknown>) => {
  const res = await api('tickets', { method: 'POST', token: who.token, json });
  expect(res.status).toBe(201);
  return (await res.json()) as Ticket;
};
const watchersOf = async (who: Person, ticketId: number) => (await readJson<TicketWatchers>(await api(`tickets/${ticketId}/watchers`, { token: who.token }))).body;
const comment = (who: Person, ticketId: number, body: string) => api(`tickets/${ticketId}/comments`, { method: 'POST', token: who.token, json: { body } });
const kinds = (page: NotificationPage) => page.items.map((item) => `${item.kind}:${item.entityId}`);

describe('notifications', () => {
  it('assigned: to the assignee, never to the actor, with the ticket title and actor name', async () => {
    const [ann, bob] = [await person('Ann'), await person('Bob')];
    const ticket = await createTicket(ann, { title: 'Printer on fire', assigneeId: bob.id });
    const bobs = await notificationsOf(bob);
    expect(bobs.unread).toBe(1);
    expect(bobs.items[0]).toEqual<Notification>({
      id: expect.any(Number),
      at: expect.any(String),
      kind: 'assigned',
      entity: 'ticket',
      entityId: ticket.id,
      title: 'Printer on fire',
      actorId: ann.id,
      actorName: 'Ann Notified',
      readAt: null,
      commentId: null,
    });
    // Assigning oneself tells nobody; re-sending the same assignee tells nobody again.
    await createTicket(ann, { title: 'Mine', assigneeId: ann.id });
    expect((await notificationsOf(ann)).total).toBe(0);
    await api(`tickets/${ticket.id}`, { method: 'PATCH', token: ann.token, json: { assigneeId: bob.id, title: 'Printer still on fire' } });
    expect((await notificationsOf(bob)).total).toBe(1);
  });

  it('commented and status: to the watchers other than the actor; the people mentioned are told that instead', async () => {
    const [ann, bob, cat] = [await person('Ann'), await person('Bob'), await person('Cat')];
    const ticket = await createTicket(ann, { title: 'Watch me', assigneeId: bob.id });
    expect((await comment(cat, ticket.id, `Over to ${mentionToken('Ann Notified', ann.id)}`)).status).toBe(201);
    expect(kinds(await notificationsOf(ann))).toEqual([`mentioned:${ticket.id}`]);
    expect(kinds(await notificationsOf(bob))).toEqual([`commented:${ticket.id}`, `assigned:${ticket.id}`]);
    expect((await notificationsOf(cat)).total).toBe(0);
    // Cat commented, so Cat watches now and hears of the status change; Bob made it and does not.
    expect((await watchersOf(cat, ticket.id)).watching).toBe(true);
    // Both notices point at the comment, which the bell opens the ticket at; the assignment at none.
    const comments = (await readJson<{ items: { id: number }[] }>(await api(`tickets/${ticket.id}/comments`, { token: ann.token }))).body.items;
    expect((await notificationsOf(ann)).items.map((item) => item.commentId)).toEqual([comments[0]?.id]);
    expect((await notificationsOf(bob)).items.map((item) => item.commentId)).toEqual([comments[0]?.id, null]);
    expect(comments[0]?.id).toEqual(expect.any(Number));
    await api(`tickets/${ticket.id}`, { method: 'PATCH', token: bob.token, json: { status: 'in_progress' } });
    expect(kinds(await notificationsOf(cat))).toEqual([`status:${ticket.id}`]);
    expect(kinds(await notificationsOf(bob))).toHaveLength(2);
  });

  it('status: the title says what the status changed to', async () => {
    const [ann, bob] = [await person('Ann'), await person('Bob')];
    const ticket = await createTicket(ann, { title: 'Printer jam' });
    await api(`tickets/${ticket.id}`, { method: 'PATCH', token: bob.token, json: { status: 'in_progress' } });
    await api(`tickets/${ticket.id}`, { method: 'PATCH', token: bob.token, json: { status: 'resolved' } });
    const titles = (await notificationsOf(ann)).items.map((item) => `${item.kind}: ${item.title}`);
    expect(titles).toEqual(['status: Printer jam (now Resolved)', 'status: Printer jam (now In progress)']);
    // The ticket itself keeps its title.
    expect((await readJson<Ticket>(await api(`tickets/${ticket.id}`, { token: ann.token }))).body.title).toBe('Printer jam');
  });

  it('mentions only active ids: unknown and inactive ones notify nobody and watch nothing', async () => {
    const ann = await person('Ann');
    const gone = await createUser({ firstName: 'Gone', isActive: false });
    const ticket = await createTicket(ann, {
      title: 'Mentions',
      description: `${mentionToken('Gone Away', gone.id)} and ${mentionToken('Nobody', 987_654)}`,
    });
    const notified = await env.DB.prepare('SELECT count(*) AS n FROM notifications WHERE entity_id = ?1').bind(ticket.id).first<{ n: number }>();
    expect(notified?.n).toBe(0);
    expect((await watchersOf(ann, ticket.id)).items.map((w) => w.userId)).toEqual([ann.id]);
    const bob = await person('Bob');
    await api(`tickets/${ticket.id}`, { method: 'PATCH', token: ann.token, json: { description: `now ${mentionToken('Bob', bob.id)}` } });
    expect(kinds(await notificationsOf(bob))).toEqual([`mentioned:${ticket.id}`]);
    // Saving the description again with the same mention tells nobody twice.
    await api(`tickets/${ticket.id}`, { method: 'PATCH', token: ann.token, json: { description: `still ${mentionToken('Bob', bob.id)}` } });
    expect((await notificationsOf(bob)).total).toBe(1);
  });

  it('a refused save (stale version) notifies nobody', async () => {
    const [ann, bob] = [await person('Ann'), await person('Bob')];
    const ticket = await createTicket(ann, { title: 'Stale' });
    const res = await api(`tickets/${ticket.id}`, { method: 'PATCH', token: ann.token, json: { assigneeId: bob.id }, headers: { 'if-match': `"${ticket.version + 5}"` } });
    expect(res.status).toBe(412);
    expect((await notificationsOf(bob)).total).toBe(0);
  });

  it('a notification that cannot be stored takes its change with it', async () => {
    const [ann, bob] = [await person('Ann'), await person('Bob')];
    const ticket = await createTicket(ann, { title: 'Atomic', assigneeId: bob.id });
    await env.DB.prepare("CREATE TRIGGER refuse_notifications BEFORE INSERT ON notifications BEGIN SELECT RAISE(ABORT, 'refused'); END").run();
    try {
      expect((await comment(ann, ticket.id, 'lost with its notice')).status).toBe(500);
      expect((await api(`tickets/${ticket.id}`, { method: 'PATCH', token: ann.token, json: { status: 'resolved' } })).status).toBe(500);
      const other = await person('Cat');
      expect((await api('tickets', { method: 'POST', token: ann.token, json: { title: 'Never stored', assigneeId: other.id } })).status).toBe(500);
    } finally {
      await env.DB.prepare('DROP TRIGGER refuse_notifications').run();
    }
    const comments = (await readJson<{ items: unknown[] }>(await api(`tickets/${ticket.id}/comments`, { token: ann.token }))).body;
    expect(comments.items).toEqual([]);
    const stored = (await readJson<Ticket>(await api(`tickets/${ticket.id}`, { token: ann.token }))).body;
    expect(stored.status).toBe(ticket.status);
    const lost = await env.DB.prepare("SELECT count(*) AS n FROM tickets WHERE title = 'Never stored'").first<{ n: number }>();
    expect(lost?.n).toBe(0);
  });

  it('lists only the caller’s own, filters unread, and marks read by id or all', async () => {
    const [ann, bob] = [await person('Ann'), await person('Bob')];
    const first = await createTicket(ann, { title: 'One', assigneeId: bob.id });
    await createTicket(ann, { title: 'Two', assigneeId: bob.id });
    const page = await notificationsOf(bob);
    expect(page).toMatchObject({ total: 2, unread: 2, page: 1 });
    expect((await notificationsOf(ann)).total).toBe(0);
    const firstId = page.items.find((item) => item.entityId === first.id)?.id;
    // Someone else's ids change nothing.
    expect((await readJson(await api('notifications/read', { method: 'POST', token: ann.token, json: { ids: [firstId] } }))).body).toEqual({ unread: 0 });
    expect((await notificationsOf(bob)).unread).toBe(2);
    expect((await readJson(await api('notifications/read', { method: 'POST', token: bob.token, json: { ids: [firstId] } }))).body).toEqual({ unread: 1 });
    expect((await notificationsOf(bob, '?unread=true')).items.map((item) => item.title)).toEqual(['Two']);
    expect((await readJson(await api('notifications/read', { method: 'POST', token: bob.token, json: {} }))).body).toEqual({ unread: 0 });
    expect((await notificationsOf(bob, '?unread=true')).total).toBe(0);
  });

  it('answers 400 to bad input and 401 without a token', async () => {
    const ann = await person('Ann');
    await expectError(await api('notifications?unread=maybe', { token: ann.token }), 400);
    await expectError(await api('notifications?pageSize=500', { token: ann.token }), 400);
    await expectError(await api('notifications/read', { method: 'POST', token: ann.token, json: { ids: ['x'] } }), 400);
    await expectError(await api('notifications/read', { method: 'POST', token: ann.token, json: { ids: [0] } }), 400);
    await expectError(await api('notifications/read', { method: 'POST', token: ann.token, json: { ids: Array.from({ length: 201 }, (_, i) => i + 1) } }), 400);
    await expectError(await api('notifications'), 401);
  });

  it('reaches its owner’s socket only', async () => {
    const [ann, bob] = [await person('Ann'), await person('Bob')];
    const [bobSocket, annSocket] = [await connect(bob.token), await connect(ann.token)];
    await Promise.all([bobSocket.next(isType('hello')), annSocket.next(isType('hello'))]);
    const ticket = await createTicket(ann, { title: 'Pushed', assigneeId: bob.id });
    const pushed = await bobSocket.next(isType('notification'));
    expect(pushed.notification).toMatchObject({ kind: 'assigned', entityId: ticket.id, title: 'Pushed', actorName: 'Ann Notified' });
    await annSocket.next(isType('changed', (m) => m.id === ticket.id));
    expect(annSocket.messages.some((m) => m.type === 'notification')).toBe(false);
    bobSocket.ws.close();
    annSocket.ws.close();
  });
});

describe('watchers', () => {
  it('the reporter, assignee, commenters and people mentioned watch; PUT and DELETE me', async () => {
    const [ann, bob, cat] = [await person('Ann'), await person('Bob'), await person('Cat')];
    const ticket = await createTicket(ann, { title: 'Watched', assigneeId: bob.id });
    expect(await watchersOf(cat, ticket.id)).toEqual({
      items: [
        { userId: ann.id, name: 'Ann Notified' },
        { userId: bob.id, name: 'Bob Notified' },
      ],
      watching: false,
    });
    expect((await api(`tickets/${ticket.id}/watchers/me`, { method: 'PUT', token: cat.token })).status).toBe(204);
    expect((await api(`tickets/${ticket.id}/watchers/me`, { method: 'PUT', token: cat.token })).status).toBe(204);
    expect((await watchersOf(cat, ticket.id)).watching).toBe(true);
    expect((await api(`tickets/${ticket.id}/watchers/me`, { method: 'DELETE', token: cat.token })).status).toBe(204);
    expect((await watchersOf(cat, ticket.id)).watching).toBe(false);
    // Watching is not audited.
    const audited = await env.DB.prepare("SELECT count(*) AS n FROM audit_log WHERE entity = 'ticket' AND entity_id = ?1").bind(ticket.id).first<{ n: number }>();
    expect(audited?.n).toBe(1);
  });

  it('lists active people only, and answers 404 for an unknown ticket', async () => {
    const { token: admin } = await person('Admin', 'admin');
    const [ann, bob] = [await person('Ann'), await person('Bob')];
    const ticket = await createTicket(ann, { title: 'Leaver', assigneeId: bob.id });
    await api('users', { method: 'PATCH', token: admin, json: { id: bob.id, isActive: false } });
    expect((await watchersOf(ann, ticket.id)).items.map((w) => w.userId)).toEqual([ann.id]);
    await expectError(await api('tickets/99999999/watchers', { token: ann.token }), 404);
    await expectError(await api('tickets/99999999/watchers/me', { method: 'PUT', token: ann.token }), 404);
  });
});
