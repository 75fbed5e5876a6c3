import type { MiddlewareHandler } from 'hono';
import type { RequestIdVariables } from 'hono/request-id';
import { API_BASE, API_VERSION, REQUEST_TIMEOUT_MS } from '../shared/constants';
import { clientAddress } from './client-address';
import type { Env } from './env';
import { shareNote } from './provider';
import type { RequestLogVariables } from './request-log';

/** Anything with a Workers-style fetch handler: the embedded provider app. */
export interface EmbeddedApi {
  fetch(request: Request, env: Env, ctx: ExecutionContext): Response | Promise<Response>;
}

export interface PassthroughOptions {
  embedded: EmbeddedApi;
  /** Only tests shorten this; the product always waits REQUEST_TIMEOUT_MS. */
  timeoutMs?: number;
}

type PassthroughEnv = { Bindings: Env; Variables: RequestIdVariables & Partial<RequestLogVariables> };

// The embedded provider is addressed like an upstream so both targets take one code path.
const EMBEDDED_ORIGIN = 'https://provider.internal';
// If-Match carries the record version a save was edited from (docs/architecture.md#record-versions);
// Cf-Access-Jwt-Assertion, who Cloudflare Access says is asking (docs/operations.md#cloudflare-access).
const FORWARDED_REQUEST_HEADERS = ['authorization', 'content-type', 'accept', 'if-match', 'cf-access-jwt-assertion'];
// Of the browser's cookies only Access's own goes on: the same identity, when the header is absent.
const ACCESS_COOKIE = /(?:^|;\s*)CF_Authorization=([^;\s]+)/;
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'set-cookie',
  'set-cookie2',
]);

class TimeoutError extends Error {}

/** The target's answer without hop-by-hop headers, including any its Connection header names. */
const passedBack = (upstream: Response) => {
  // An accepted WebSocket is handed on as it is: the socket, not a body, and it stays open after
  // the timeout below has stopped counting (it counts only until the answer arrives).
  const response = upstream.webSocket
    ? new Response(null, { status: upstream.status, headers: upstream.headers, webSocket: upstream.webSocket })
    : new Response(upstream.body, upstream);
  const { headers } = response;
  for (const name of (headers.get('connection') ?? '').split(',')) if (name.trim()) headers.delete(name.trim());
  for (const name of HOP_BY_HOP) headers.delete(name);
  return response;
};

/**
 * The time the target is given. It counts only once the request's body has arrived whole, and
 * restarts with each piece of it until then: a 25 MiB upload on a slow line is not cut off while
 * it still arrives, and a target that stops reading a body (or a client that stops sending one)
 * is given up on after `ms` without progress.
 */
class Clock {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private answered = false;
  private expire: () => void = () => undefined;
  readonly expired = new Promise<never>((_, reject) => {
    this.expire = () => reject(new TimeoutError());
  });

  constructor(
    private readonly ms: number,
    private readonly onExpiry: () => void,
  ) {}

  restart() {
    if (this.answered) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.onExpiry();
      this.expire();
    }, this.ms);
  }

  /** The target has answered (or failed): a body still arriving no longer counts. */
  stop() {
    this.answered = true;
    if (this.timer !== null) clearTimeout(this.timer);
  }
}

/**
 * The request's body passed on as it arrives rather than read whole (an attachment is up to
 * 25 MiB), restarting the clock with each piece. When its length is known the stream keeps it,
 * so the target still sees Content-Length. `cut` fails the body, so a target still reading it
 * (the embedded provider storing a file) stops and keeps nothing.
 */
const streamedBody = (body: ReadableStream<Uint8Array>, length: number | null, clock: Clock) => {
  let whole = false;
  let fail: (reason: unknown) => void = () => undefined;
  // Once whole, there is nothing left to cut.
  const cut = (reason: unknown) => whole || fail(reason);
  const { readable: counted, writable } = new TransformStream<Uint8Array, Uint8Array>({
    start(controller) {
      fail = (reason) => controller.error(reason);
    },
    transform(chunk, controller) {
      clock.restart();
      controller.enqueue(chunk);
    },
    flush() {
      whole = true;
      clock.restart();
    },
  });
  // A body cut off by its sender, or by `cut`, fails the stream the target reads.
  void body.pipeTo(writable).catch(() => undefined);
  if (length === null) return { stream: counted, cut };
  const fixed = new FixedLengthStream(length);
  void counted.pipeTo(fixed.writable).catch(() => undefined);
  return { stream: fixed.readable, cut };
};

/** The body's declared length, when it is a sane one. */
const declaredLength = (request: Request) => {
  const length = Number(request.headers.get('content-length') ?? NaN);
  return Number.isSafeInteger(length) && length >= 0 ? length : null;
};

/**
 * Forwards an /api/v1 request to UPSTREAM_API_URL, or to the embedded provider when it is empty:
 * one attempt, a timeout answered with 504, an unreachable target with 502, and the target's
 * status and body passed back unchanged.
 */
export const passthrough = ({ embedded, timeoutMs = REQUEST_TIMEOUT_MS }: PassthroughOptions): MiddlewareHandler<PassthroughEnv> =>
  async (c) => {
    const incoming = new URL(c.req.url);
    const rest = incoming.pathname.slice(API_BASE.length);
    const upstreamBase = c.env.UPSTREAM_API_URL?.trim().replace(/\/+$/, '');
    const target = `${upstreamBase || EMBEDDED_ORIGIN}/${API_VERSION}${rest}${incoming.search}`;

    const headers = new Headers();
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const value = c.req.header(name);
      if (value) headers.set(name, value);
    }
    const accessCookie = ACCESS_COOKIE.exec(c.req.header('cookie') ?? '')?.[1];
    if (accessCookie) headers.set('cookie', `CF_Authorization=${accessCookie}`);
    // The live channel's upgrade (docs/architecture.md#live-updates) reaches the target as a WebSocket request.
    if (c.req.header('upgrade')?.toLowerCase() === 'websocket') headers.set('upgrade', 'websocket');
    headers.set('x-request-id', c.get('requestId'));
    const address = clientAddress(c.env, c.req.raw);
    if (address) headers.set('x-forwarded-for', address);
    headers.set('x-forwarded-proto', incoming.protocol.replace(':', ''));
    headers.set('x-forwarded-host', incoming.host);

    const method = c.req.method;
    const controller = new AbortController();
    let cutBody: (reason: unknown) => void = () => undefined;
    const clock = new Clock(timeoutMs, () => {
      controller.abort();
      // Aborting a fetch stops its body too; the embedded provider is no fetch, and has its body cut.
      if (!upstreamBase) cutBody(new TimeoutError());
    });
    const incomingBody = method === 'GET' || method === 'HEAD' ? null : c.req.raw.body;
    let body: ReadableStream<Uint8Array> | undefined;
    if (incomingBody) {
      const length = declaredLength(c.req.raw);
      // The target may refuse a body by its declared length before reading it (an upload over 25 MiB).
      if (length !== null) headers.set('content-length', String(length));
      ({ stream: body, cut: cutBody } = streamedBody(incomingBody, length, clock));
    }
    const request = new Request(target, { method, headers, body, signal: controller.signal, redirect: 'manual' });

    shareNote(request, c.get('requestNote'));
    clock.restart();
    const send = upstreamBase ? fetch(request) : Promise.resolve().then(() => embedded.fetch(request, c.env, c.executionCtx));
    // The embedded provider runs in this invocation. What it does with a body that breaks off or is
    // given up on (aborting the R2 upload, deleting a stored file) has to run to its end, even once
    // the sender has gone or the Worker has answered 504.
    if (!upstreamBase && body) c.executionCtx.waitUntil(send.catch(() => undefined));
    try {
      return passedBack(await Promise.race([send, clock.expired]));
    } catch (error) {
      if (error instanceof TimeoutError) {
        return c.json({ message: `The API did not answer within ${timeoutMs / 1000} seconds` }, 504);
      }
      console.error('passthrough: target unreachable', error);
      return c.json({ message: 'The API is unreachable' }, 502);
    } finally {
      clock.stop();
    }
  };
