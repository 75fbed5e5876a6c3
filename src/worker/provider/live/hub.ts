import { DurableObject } from 'cloudflare:workers';
import {
  LIVE_SESSION_ENDED,
  LIVE_SOCKETS_PER_PERSON,
  LIVE_TICKET_SECONDS,
  LIVE_TICKETS_PER_PERSON,
  liveMayRead,
  type ChangedEvent, type LiveTicket, type PresencePerson, type ServerMessage } from '../../../shared/live';
import type { AuditEntity, Notification, Role } from '../../../shared/types';
import type { TokenClaims } from '../auth/token';
import { findLivePerson } from '../db/live';
import { findLiveTokens } from '../db/sessions';
import type { ProviderBindings } from '../env';
import { parseViewMessage } from './view-message';

/** What each socket remembers across hibernation (serializeAttachment). */
interface Socket {
  claims: TokenClaims;
  name: string;
  role: Role;
  view: { entity: AuditEntity; id: number; editing: boolean } | null;
}

interface StoredTicket {
  claims: TokenClaims;
  /** Unix milliseconds. */
  expiresAt: number;
}

/** What one committed request changed, for the hub to pass on. */
export interface Publication {
  changes: ChangedEvent[];
  notifications: { userId: number; notification: Notification }[];
  /** People whose sessions the request may have ended (sign-out, deactivation, role or password change). */
  sessionsOf: number[];
}

const TICKET_PREFIX = 'ticket:';
const TOO_MANY_SOCKETS = `You have ${LIVE_SOCKETS_PER_PERSON} live connections open; close a tab or window first`;
const userTag = (userId: number) => `user:${userId}`;
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const randomTicket = () => {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

/**
 * The team's live channel (docs/architecture.md#live-updates): one instance holds every open socket
 * through the WebSocket Hibernation API, so it sleeps between events. It hands out single-use
 * tickets, passes committed changes on to whoever may read the record, tells the people on one
 * record about each other, and closes the sockets of a session that has ended.
 */
export class LiveHub extends DurableObject<ProviderBindings> {
  /**
   * A ticket for one socket of the token's session, usable once within LIVE_TICKET_SECONDS; null
   * while the person already holds LIVE_TICKETS_PER_PERSON unused ones, so nobody fills the hub's
   * storage (every ticket call reads all of it).
   */
  async issueTicket(claims: TokenClaims): Promise<LiveTicket | null> {
    const now = Date.now();
    const stored = [...(await this.ctx.storage.list<StoredTicket>({ prefix: TICKET_PREFIX })).entries()];
    const stale = stored.filter(([, ticket]) => ticket.expiresAt <= now);
    if (stale.length) await this.ctx.storage.delete(stale.map(([key]) => key));
    const held = stored.filter(([, ticket]) => ticket.expiresAt > now && ticket.claims.userId === claims.userId).length;
    if (held >= LIVE_TICKETS_PER_PERSON) return null;
    const ticket = randomTicket();
    const expiresAt = now + LIVE_TICKET_SECONDS * 1000;
    await this.ctx.storage.put<StoredTicket>(TICKET_PREFIX + ticket, { claims, expiresAt });
    return { ticket, expiresAt: new Date(expiresAt).toISOString() };
  }

  /** The upgrade: a valid ticket of a session still open, else 401 and no socket. */
  async fetch(request: Request): Promise<Response> {
    const ticket = new URL(request.url).searchParams.get('ticket') ?? '';
    const key = TICKET_PREFIX + ticket;
    const stored = ticket ? await this.ctx.storage.get<StoredTicket>(key) : undefined;
    // Used once, whatever follows: the object runs one event at a time, so no two upgrades share it.
    if (stored) await this.ctx.storage.delete(key);
    if (!stored || stored.expiresAt <= Date.now()) return json(401, { message: 'Invalid or expired live ticket' });
    if (request.headers.get('upgrade')?.toLowerCase() !== 'websocket') return json(426, { message: 'Expected a WebSocket upgrade' });
    // Counted here, where every socket is, one upgrade at a time: no two can both take the last place.
    if (this.ctx.getWebSockets(userTag(stored.claims.userId)).length >= LIVE_SOCKETS_PER_PERSON) return json(429, { message: TOO_MANY_SOCKETS });
    const person = await findLivePerson(this.env.DB, stored.claims);
    if (!person) return json(401, { message: 'Invalid or expired token' });

    const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
    this.ctx.acceptWebSocket(server, [userTag(stored.claims.userId)]);
    server.serializeAttachment({ claims: stored.claims, name: person.name, role: person.role, view: null } satisfies Socket);
    send(server, { type: 'hello', userId: stored.claims.userId, seq: person.seq });
    await this.closeAtExpiry(stored.claims.expiresAt * 1000);
    return new Response(null, { status: 101, webSocket: client });
  }

  async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer) {
    const view = parseViewMessage(message);
    const socket = attachmentOf(ws);
    if (view === undefined || !socket) return;
    const next = view.entity !== null && liveMayRead(socket.role, view.entity) ? view : null;
    const before = socket.view;
    ws.serializeAttachment({ ...socket, view: next } satisfies Socket);
    if (before && (before.entity !== next?.entity || before.id !== next.id)) this.sendPresence(before.entity, before.id);
    if (next) this.sendPresence(next.entity, next.id);
  }

  async webSocketClose(ws: WebSocket, code: number, reason: string) {
    const view = attachmentOf(ws)?.view;
    try {
      ws.close(code, reason);
    } catch {
      // Already closed by the runtime's own reply.
    }
    if (view) this.sendPresence(view.entity, view.id, ws);
  }

  async webSocketError(ws: WebSocket) {
    const view = attachmentOf(ws)?.view;
    if (view) this.sendPresence(view.entity, view.id, ws);
  }

  /** Closes sockets whose token has expired, then waits for the next one to. */
  async alarm() {
    const now = Date.now();
    let next = Infinity;
    for (const ws of this.ctx.getWebSockets()) {
      const expiresAt = (attachmentOf(ws)?.claims.expiresAt ?? 0) * 1000;
      if (expiresAt <= now) this.endSession(ws);
      else next = Math.min(next, expiresAt);
    }
    if (next < Infinity) await this.ctx.storage.setAlarm(next);
  }

  /** Passes one committed request's changes and notifications on, then checks the sessions it may have ended. */
  async publish({ changes, notifications, sessionsOf }: Publication) {
    const sockets = this.ctx.getWebSockets();
    for (const change of changes) {
      const text = JSON.stringify(change);
      for (const ws of sockets) {
        const socket = attachmentOf(ws);
        if (socket && liveMayRead(socket.role, change.entity)) sendText(ws, text);
      }
    }
    for (const { userId, notification } of notifications) {
      for (const ws of this.ctx.getWebSockets(userTag(userId))) send(ws, { type: 'notification', notification });
    }
    await Promise.all([...new Set(sessionsOf)].map((userId) => this.recheckSessions(userId)));
  }

  /**
   * Closes with 4401 each of the person's sockets whose session no longer passes the check every
   * call makes, or whose role changed: one query for all of them, none when they have no socket.
   */
  private async recheckSessions(userId: number) {
    const sockets = this.ctx.getWebSockets(userTag(userId)).map((ws) => ({ ws, socket: attachmentOf(ws) }));
    if (!sockets.length) return;
    const claims = sockets.flatMap(({ socket }) => (socket ? [socket.claims] : []));
    const { role, live } = await findLiveTokens(this.env.DB, userId, claims);
    for (const { ws, socket } of sockets) {
      if (!socket || !live.has(socket.claims.tokenId) || socket.role !== role) this.endSession(ws);
    }
  }

  private endSession(ws: WebSocket) {
    const view = attachmentOf(ws)?.view;
    try {
      ws.close(LIVE_SESSION_ENDED, 'Session ended');
    } catch {
      // Already closing.
    }
    if (view) this.sendPresence(view.entity, view.id, ws);
  }

  private async closeAtExpiry(at: number) {
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > at) await this.ctx.storage.setAlarm(at);
  }

  /** Tells everyone on one record who is there: one entry a person, editing if any of their tabs is. */
  private sendPresence(entity: AuditEntity, id: number, leaving?: WebSocket) {
    const viewers = this.ctx
      .getWebSockets()
      .filter((ws) => ws !== leaving && ws.readyState === WebSocket.OPEN)
      .map((ws) => ({ ws, socket: attachmentOf(ws) }))
      .filter(({ socket }) => socket?.view?.entity === entity && socket.view.id === id);
    const people = new Map<number, PresencePerson>();
    for (const { socket } of viewers) {
      if (!socket?.view) continue;
      const known = people.get(socket.claims.userId);
      people.set(socket.claims.userId, { userId: socket.claims.userId, name: socket.name, editing: (known?.editing ?? false) || socket.view.editing });
    }
    const text = JSON.stringify({ type: 'presence', entity, id, people: [...people.values()] } satisfies ServerMessage);
    for (const { ws } of viewers) sendText(ws, text);
  }
}

const attachmentOf = (ws: WebSocket) => ws.deserializeAttachment() as Socket | null;

const sendText = (ws: WebSocket, text: string) => {
  try {
    ws.send(text);
  } catch {
    // A socket closing meanwhile; its close handler tidies up.
  }
};

const send = (ws: WebSocket, message: ServerMessage) => sendText(ws, JSON.stringify(message));
