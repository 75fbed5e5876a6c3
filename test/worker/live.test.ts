import { createExecutionContext, env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { LIVE_SESSION_ENDED } from '../../src/shared/live';
import type { Ticket } from '../../src/shared/types';
import { createApp } from '../../src/worker/index';
import type { LiveHub } from '../../src/worker/provider/live/hub';
import { connect, isType, liveTicket, openSocket, upgrade } from './live-socket';
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

  it('says hello with the person’s id', async () => {
    const { user, token } = await signedIn('staff');
    const socket = await connect(token);
    expect(await socket.next(isType('hello'))).toEqual({ type: 'hello', userId: user.id });
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
