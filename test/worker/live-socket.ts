import type { ServerMessage } from '../../src/shared/live';
import { api } from './support';

/** A client of the live channel, as the browser opens it: ticket first, then the upgrade through the Worker. */
export interface LiveClient {
  ws: WebSocket;
  messages: ServerMessage[];
  /** The first message (from now on or already received and not yet taken) that matches. */
  next: <M extends ServerMessage>(match: (message: ServerMessage) => message is M, timeoutMs?: number) => Promise<M>;
  closed: Promise<{ code: number; at: number }>;
  send: (message: unknown) => void;
}

export const liveTicket = async (token: string) => {
  const res = await api('live/ticket', { method: 'POST', token });
  if (res.status !== 200) throw new Error(`live/ticket answered ${res.status}`);
  return (await res.json()) as { ticket: string; expiresAt: string };
};

export const upgrade = (ticket: string, fetcher = api) => fetcher(`live?ticket=${encodeURIComponent(ticket)}`, { headers: { upgrade: 'websocket' } });

export const openSocket = (res: Response): LiveClient => {
  const ws = res.webSocket;
  if (!ws) throw new Error(`no socket: ${res.status}`);
  ws.accept();
  const messages: ServerMessage[] = [];
  const waiters: (() => void)[] = [];
  ws.addEventListener('message', (event) => {
    messages.push(JSON.parse(event.data as string) as ServerMessage);
    for (const wake of waiters.splice(0)) wake();
  });
  const closed = new Promise<{ code: number; at: number }>((resolve) => ws.addEventListener('close', (event) => resolve({ code: event.code, at: Date.now() })));
  const next: LiveClient['next'] = async (match, timeoutMs = 5000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = messages.findIndex(match);
      if (index >= 0) return messages.splice(index, 1)[0] as never;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching message within ${timeoutMs} ms; got ${JSON.stringify(messages)}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, left);
      });
    }
  };
  return { ws, messages, next, closed, send: (message) => ws.send(JSON.stringify(message)) };
};

export const connect = async (token: string, fetcher = api) => openSocket(await upgrade((await liveTicket(token)).ticket, fetcher));

export const isType =
  <T extends ServerMessage['type']>(type: T, extra: (message: Extract<ServerMessage, { type: T }>) => boolean = () => true) =>
  (message: ServerMessage): message is Extract<ServerMessage, { type: T }> =>
    message.type === type && extra(message as Extract<ServerMessage, { type: T }>);

type Patchable = Record<PropertyKey, unknown>;

/**
 * How many D1 statements `work` runs in this isolate (the Worker's and the hub's alike): every
 * statement run alone or in a batch. Wraps the D1 classes while it runs, then puts them back.
 */
export const countD1Statements = async (db: D1Database, work: () => Promise<unknown>) => {
  const databaseProto = Object.getPrototypeOf(db) as Patchable;
  const statementProto = Object.getPrototypeOf(db.prepare('SELECT 1')) as Patchable;
  let count = 0;
  const restore: (() => void)[] = [];
  const wrap = (proto: Patchable, method: string, statements: (args: unknown[]) => number) => {
    const original = proto[method] as (...args: unknown[]) => unknown;
    proto[method] = function (this: unknown, ...args: unknown[]) {
      count += statements(args);
      return original.apply(this, args);
    };
    restore.push(() => (proto[method] = original));
  };
  for (const method of ['first', 'all', 'run', 'raw']) wrap(statementProto, method, () => 1);
  wrap(databaseProto, 'batch', ([statements]) => (Array.isArray(statements) ? statements.length : 0));
  try {
    await work();
  } finally {
    for (const undo of restore) undo();
  }
  return count;
};
