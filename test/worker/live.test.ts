import { createExecutionContext, env, runInDurableObject, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { LIVE_SESSION_ENDED, LIVE_SOCKETS_PER_PERSON, LIVE_TICKET_SECONDS, LIVE_TICKETS_PER_PERSON } from '../../src/shared/live';
import type { Ticket } from '../../src/shared/types';
import { createApp } from '../../src/worker/index';
import type { LiveHub } from '../../src/worker/provider/live/hub';
import { connect, countD1Statements, isType, liveTicket, openSocket, upgrade } from './live-socket';
import { ORIGIN, api, createUser, expectError, login, signedIn, sleep } from './support';

const newTicket = async (token: string, title = 'Live ticket') =>
  (await (await api('tickets', { method: 'POST', token, json: { title } })).json()) as Ticket;

const hub = () => env.LIVE.get(env.LIVE.idFromName('team'));

describe('POST live/ticket', () => {
  it('gives a signed-in user a ticket that expires in 30 s, and nobody else one', async () => {
    const { token } = await signedIn('staff');
    const before = Date.now();
    const { ticket, expiresAt } = await liveTicket(token);
    expect(ticket).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const life = Date.parse(expiresAt) - before;
    expect(life).toBeGreaterThan(29_000);
    expect(life).toBeLessThanOrEqual(31_000);
    await expectError(await api('live/ticket', { method: 'POST' }), 401);
    await expectError(await api('live/ticket', { method: 'POST', token: 'not-a-token' }), 401);
  });
});

describe('GET live (the upgrade)', () => {
  it('refuses a missing, unknown, used or expired ticket with 401 before any upgrade', async () => {
    const { token } = await signedIn('staff');
    for (const res of [await api('live', { headers: { upgrade: 'websocket' } }), await upgrade('no-such-ticket')]) {
      expect(res.webSocket).toBeNull();
      await expectError(res, 401);
    }
    const { ticket } = await liveTicket(token);
    const first = openSocket(await upgrade(ticket));
    await first.next(isType('hello'));
    const again = await upgrade(ticket);
    expect(again.webSocket).toBeNull();
    await expectError(again, 401);

    const { ticket: late } = await liveTicket(token);
    await runInDurableObject(hub(), async (_instance: LiveHub, state) => {
      const key = `ticket:${late}`;
      const stored = await state.storage.get<{ expiresAt: number }>(key);
      await state.storage.put(key, { ...stored, expiresAt: Date.now() - 1 });
    });
    await expectError(await upgrade(late), 401);
    first.ws.close();
  });

  it('refuses the ticket of a token signed out after it was issued', async () => {
    const { token } = await signedIn('staff');
    const { ticket } = await liveTicket(token);
    expect((await api('auth/logout', { method: 'POST', token })).status).toBe(204);
    await expectError(await upgrade(ticket), 401);
  });

  it('says hello with the person’s id and the newest seq', async () => {
    const { user, token } = await signedIn('staff');
    const { seq } = await env.DB.prepare('SELECT max(id) AS seq FROM audit_log').first<{ seq: number }>() ?? { seq: 0 };
    const socket = await connect(token);
    expect(await socket.next(isType('hello'))).toEqual({ type: 'hello', userId: user.id, seq });
    socket.ws.close();
  });
});

describe('changed events', () => {
  it('reach every socket after a committed write, with ids, version and the actor’s name only', async () => {
    const alice = await createUser({ firstName: 'Alice', surname: 'Writer', role: 'staff' });
    const aliceToken = await login(alice);
    const { token: bobToken } = await signedIn('staff');
    const ticket = await newTicket(aliceToken);
    const bob = await connect(bobToken);
    const self = await connect(aliceToken);
    await bob.next(isType('hello'));

    const saved = await api(`tickets/${ticket.id}`, { method: 'PATCH', token: aliceToken, json: { title: 'Changed live' } });
    expect(saved.status).toBe(200);
    const event = await bob.next(isType('changed', (m) => m.entity === 'ticket' && m.id === ticket.id));
    expect(event).toEqual({
      type: 'changed',
      entity: 'ticket',
      id: ticket.id,
      version: ticket.version + 1,
      action: 'update',
      actorId: alice.id,
      actorName: 'Alice Writer',
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      seq: expect.any(Number),
    });
    expect(JSON.stringify(event)).not.toContain('Changed live');
    await self.next(isType('changed', (m) => m.id === ticket.id));

    // A comment is in its ticket's history, so it is a change of the ticket.
    await api(`tickets/${ticket.id}/comments`, { method: 'POST', token: aliceToken, json: { body: 'hello' } });
    expect(await bob.next(isType('changed', (m) => m.id === ticket.id))).toMatchObject({ action: 'comment', version: ticket.version + 1 });
    bob.ws.close();
    self.ws.close();
  });

  it('publishes nothing for a write that failed', async () => {
    const { token } = await signedIn('staff');
    const ticket = await newTicket(token);
    const socket = await connect(token);
    await socket.next(isType('hello'));
    const stale = await api(`tickets/${ticket.id}`, { method: 'PATCH', token, json: { title: 'x' }, headers: { 'if-match': '"99"' } });
    expect(stale.status).toBe(412);
    await api(`tickets/${ticket.id}`, { method: 'PATCH', token, json: { title: 'Marker' } });
    const first = await socket.next(isType('changed', (m) => m.id === ticket.id));
    expect(first.version).toBe(ticket.version + 1);
    socket.ws.close();
  });

  it('keeps the socket open past the passthrough’s timeout', async () => {
    const shortTimeout = createApp({ log: () => {}, timeoutMs: 200 });
    const fetcher = (path: string, init: RequestInit = {}) => shortTimeout.fetch(new Request(`${ORIGIN}/api/v1/${path}`, init), env, createExecutionContext());
    const { token } = await signedIn('staff');
    const ticket = await newTicket(token);
    const socket = await connect(token, async (path, init) => fetcher(path, { ...init, headers: { ...(init?.headers as object), authorization: `Bearer ${token}` } }));
    await socket.next(isType('hello'));
    await sleep(600);
    await api(`tickets/${ticket.id}`, { method: 'PATCH', token, json: { title: 'Still open' } });
    await socket.next(isType('changed', (m) => m.id === ticket.id));
    expect(socket.ws.readyState).toBe(WebSocket.OPEN);
    socket.ws.close();
  });
});

describe('what a socket may carry', () => {
  it('never sign-ins, and no presence on records outside what sockets are told about', async () => {
    const { token } = await signedIn('staff');
    const ticket = await newTicket(token);
    const socket = await connect(token);
    await socket.next(isType('hello'));
    const other = await createUser({ role: 'staff' });
    await login(other);
    await api(`tickets/${ticket.id}`, { method: 'PATCH', token, json: { title: 'Marker after the sign-in' } });
    await socket.next(isType('changed', (m) => m.id === ticket.id));
    socket.send({ type: 'view', entity: 'session', id: other.id, editing: false });
    socket.send({ type: 'view', entity: 'ticket', id: ticket.id, editing: false });
    await socket.next(isType('presence', (m) => m.entity === 'ticket'));
    expect(socket.messages.filter((m) => m.type !== 'hello' && 'entity' in m && m.entity === 'session')).toEqual([]);
    socket.ws.close();
  });
});

describe('presence', () => {
  it('lists the people on one record, who is editing, and clears when they leave', async () => {
    const alice = await createUser({ firstName: 'Alice', surname: 'Viewer', role: 'staff' });
    const bob = await createUser({ firstName: 'Bob', surname: 'Editor', role: 'billing' });
    const { token } = await signedIn('staff');
    const ticket = await newTicket(token);
    const a = await connect(await login(alice));
    const b = await connect(await login(bob));
    await Promise.all([a.next(isType('hello')), b.next(isType('hello'))]);

    a.send({ type: 'view', entity: 'ticket', id: ticket.id, editing: false });
    await a.next(isType('presence', (m) => m.people.length === 1));
    b.send({ type: 'view', entity: 'ticket', id: ticket.id, editing: true });
    const both = await a.next(isType('presence', (m) => m.people.length === 2));
    expect(both).toEqual({
      type: 'presence',
      entity: 'ticket',
      id: ticket.id,
      people: expect.arrayContaining([
        { userId: alice.id, name: 'Alice Viewer', editing: false },
        { userId: bob.id, name: 'Bob Editor', editing: true },
      ]),
    });
    b.send({ type: 'view', entity: null });
    expect((await a.next(isType('presence', (m) => m.people.length === 1))).people).toEqual([{ userId: alice.id, name: 'Alice Viewer', editing: false }]);

    b.send({ type: 'view', entity: 'ticket', id: ticket.id, editing: false });
    await a.next(isType('presence', (m) => m.people.length === 2));
    b.ws.close();
    await a.next(isType('presence', (m) => m.people.length === 1));
    a.ws.close();
  });

  it('ignores messages that are not a valid view', async () => {
    const { token } = await signedIn('staff');
    const socket = await connect(token);
    await socket.next(isType('hello'));
    for (const bad of ['nonsense', '{"type":"view","entity":"ticket","id":-1}', '{"type":"view","entity":"secrets","id":1}', 'x'.repeat(10_000)]) socket.ws.send(bad);
    socket.send({ type: 'view', entity: 'ticket', id: 1, editing: false });
    expect((await socket.next(isType('presence'))).id).toBe(1);
    socket.ws.close();
  });
});

describe('revoked sessions', () => {
  const closesWith4401 = async (socket: Awaited<ReturnType<typeof connect>>, revoke: () => Promise<Response>) => {
    await socket.next(isType('hello'));
    const start = Date.now();
    expect((await revoke()).status).toBeLessThan(300);
    const { code, at } = await socket.closed;
    expect(code).toBe(LIVE_SESSION_ENDED);
    expect(at - start).toBeLessThan(2000);
  };

  it('closes the socket of a signed-out token, and only that one', async () => {
    const { user, token } = await signedIn('staff');
    const other = await connect(await login(user));
    await closesWith4401(await connect(token), () => api('auth/logout', { method: 'POST', token }));
    await sleep(100);
    expect(other.ws.readyState).toBe(WebSocket.OPEN);
    other.ws.close();
  });

  it('closes on deactivation, a role change and a password reset by an admin', async () => {
    const { token: admin } = await signedIn('admin');
    for (const change of [{ isActive: false }, { role: 'billing' }, { password: 'a brand new passphrase 1' }]) {
      const user = await createUser({ role: 'staff' });
      const socket = await connect(await login(user));
      await closesWith4401(socket, () => api('users', { method: 'PATCH', token: admin, json: { id: user.id, ...change } }));
    }
  });

  it('closes on a change of one’s own password', async () => {
    const user = await createUser({ role: 'staff' });
    const token = await login(user);
    await closesWith4401(await connect(token), () =>
      api('users/change-password', { method: 'PATCH', token, json: { id: user.id, newPassword: 'another long passphrase 2', confirmPassword: 'another long passphrase 2' } }),
    );
  });
});

describe('what the channel costs', () => {
  const app = createApp({ log: () => {} });
  /** One call, answered with success, once the publishing its waitUntil does has finished too. */
  const settled = async (method: string, path: string, token: string, json: unknown) => {
    const ctx = createExecutionContext();
    const init = { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(json) };
    const res = await app.fetch(new Request(`${ORIGIN}/api/v1/${path}`, init), env, ctx);
    expect(res.status).toBeLessThan(300);
    await waitOnExecutionContext(ctx);
    return res;
  };
  /** D1 statements of one PATCH, its publishing included. */
  const patch = (path: string, token: string, json: unknown) => countD1Statements(env.DB, () => settled('PATCH', path, token, json));
  const sockets = async (token: string, count: number) => {
    const open = await Promise.all(Array.from({ length: count }, () => connect(token)));
    await Promise.all(open.map((socket) => socket.next(isType('hello'))));
    return open;
  };

  it('counts every statement, alone or in a batch', async () => {
    expect(await countD1Statements(env.DB, () => env.DB.prepare('SELECT 1').first())).toBe(1);
    expect(await countD1Statements(env.DB, () => env.DB.batch([env.DB.prepare('SELECT 1'), env.DB.prepare('SELECT 2')]))).toBe(2);
  });

  it('spends the same statements on a write whether its author has no socket open or many', async () => {
    const { token } = await signedIn('staff');
    const ticket = (await (await settled('POST', 'tickets', token, { title: 'Costed' })).json()) as Ticket;
    // A write that ends no session checks none: with no socket there is none to check.
    const withNone = await patch(`tickets/${ticket.id}`, token, { title: 'No socket' });
    const [first] = await sockets(token, 1);
    const withOne = await patch(`tickets/${ticket.id}`, token, { title: 'One socket' });
    const more = await sockets(token, 15);
    const withMany = await patch(`tickets/${ticket.id}`, token, { title: 'Sixteen sockets' });
    expect([withOne, withMany]).toEqual([withNone, withNone]);
    // Every socket still heard the writes.
    for (const socket of [first, ...more]) await socket.next(isType('changed', (m) => m.id === ticket.id && m.version === ticket.version + 3));
    for (const socket of [first, ...more]) socket.ws.close();
  });

  it('spends only the session check on a ticket, which publishes nothing', async () => {
    const { token } = await signedIn('staff');
    await sockets(token, 3);
    expect(await countD1Statements(env.DB, () => settled('POST', 'live/ticket', token, {}))).toBe(1);
  });

  it('spends the same statements ending a person’s sessions however many sockets they had, and closes them all', async () => {
    const { token: admin } = await signedIn('admin');
    const cost = async (count: number) => {
      const user = await createUser({ role: 'staff' });
      const open = await sockets(await login(user), count);
      const statements = await patch('users', admin, { id: user.id, role: 'billing' });
      for (const socket of open) expect((await socket.closed).code).toBe(LIVE_SESSION_ENDED);
      return statements;
    };
    expect(await cost(15)).toBe(await cost(1));
  });
});

describe('limits per person', () => {
  it(`opens at most ${LIVE_SOCKETS_PER_PERSON} sockets a person; the next upgrade is 429 until one closes`, async () => {
    const { user, token } = await signedIn('staff');
    const open = await Promise.all(Array.from({ length: LIVE_SOCKETS_PER_PERSON }, () => connect(token)));
    await Promise.all(open.map((socket) => socket.next(isType('hello'))));
    const refused = await upgrade((await liveTicket(token)).ticket);
    expect(refused.webSocket).toBeNull();
    expect((await expectError(refused, 429)).message).toMatch(/20 live connections/);
    // Someone else is not held to this person's count.
    const other = await connect((await signedIn('staff')).token);
    await other.next(isType('hello'));

    // Once the hub has let the first socket go (its presence is gone), the place is free again.
    const [first, ...rest] = open;
    first?.send({ type: 'view', entity: 'ticket', id: 7, editing: false });
    other.send({ type: 'view', entity: 'ticket', id: 7, editing: false });
    await other.next(isType('presence', (m) => m.people.some((p) => p.userId === user.id)));
    first?.ws.close();
    await other.next(isType('presence', (m) => m.people.length === 1));
    const again = await connect(token);
    await again.next(isType('hello'));
    for (const socket of [...rest, again, other]) socket.ws.close();
  });

  it(`holds at most ${LIVE_TICKETS_PER_PERSON} unused tickets a person; the next is 429 until one is used`, async () => {
    const { token } = await signedIn('staff');
    const tickets = [];
    for (let i = 0; i < LIVE_TICKETS_PER_PERSON; i += 1) tickets.push((await liveTicket(token)).ticket);
    const refused = await api('live/ticket', { method: 'POST', token });
    expect((await expectError(refused, 429)).message).toMatch(/unused live tickets/);
    expect(refused.headers.get('retry-after')).toBe(String(LIVE_TICKET_SECONDS));
    await liveTicket((await signedIn('staff')).token);

    const socket = openSocket(await upgrade(tickets[0] ?? ''));
    await socket.next(isType('hello'));
    await liveTicket(token);
    socket.ws.close();
  });

  it('keeps one view a socket: announcing another record leaves the last', async () => {
    const { user, token } = await signedIn('staff');
    const watcher = await connect((await signedIn('staff')).token);
    const socket = await connect(token);
    await Promise.all([watcher.next(isType('hello')), socket.next(isType('hello'))]);
    watcher.send({ type: 'view', entity: 'ticket', id: 1, editing: false });
    await watcher.next(isType('presence', (m) => m.id === 1 && m.people.length === 1));
    socket.send({ type: 'view', entity: 'ticket', id: 1, editing: false });
    await watcher.next(isType('presence', (m) => m.id === 1 && m.people.some((p) => p.userId === user.id)));
    for (let id = 2; id <= 50; id += 1) socket.send({ type: 'view', entity: 'ticket', id, editing: false });
    await watcher.next(isType('presence', (m) => m.id === 1 && m.people.length === 1));
    await socket.next(isType('presence', (m) => m.id === 50));
    await runInDurableObject(hub(), (_instance: LiveHub, state) => {
      const views = state.getWebSockets(`user:${user.id}`).map((ws) => (ws.deserializeAttachment() as { view: unknown }).view);
      expect(views).toEqual([{ type: 'view', entity: 'ticket', id: 50, editing: false }]);
    });
    socket.ws.close();
    watcher.ws.close();
  });
});
