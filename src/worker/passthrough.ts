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
// If-Match carries the record version a save was edited from (docs/architecture.md#record-versions).
const FORWARDED_REQUEST_HEADERS = ['authorization', 'content-type', 'accept', 'if-match'];
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

const withTimeout = async <T>(work: Promise<T>, ms: number, controller: AbortController): Promise<T> => {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new TimeoutError());
    }, ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    if (timer !== null) clearTimeout(timer);
  }
};

/**
 * The request's body passed on as it arrives rather than read whole (an attachment is up to
 * 25 MiB). When its length is known the stream keeps it, so the target still sees Content-Length.
 */
const streamedBody = (request: Request) => {
  if (!request.body) return null;
  const length = Number(request.headers.get('content-length') ?? NaN);
  if (!Number.isSafeInteger(length) || length < 0) return request.body;
  const { readable, writable } = new FixedLengthStream(length);
  void request.body.pipeTo(writable).catch(() => undefined);
  return readable;
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
    // The live channel's upgrade (docs/architecture.md#live-updates) reaches the target as a WebSocket request.
    if (c.req.header('upgrade')?.toLowerCase() === 'websocket') headers.set('upgrade', 'websocket');
    headers.set('x-request-id', c.get('requestId'));
    const address = clientAddress(c.env, c.req.raw);
    if (address) headers.set('x-forwarded-for', address);
    headers.set('x-forwarded-proto', incoming.protocol.replace(':', ''));
    headers.set('x-forwarded-host', incoming.host);

    const method = c.req.method;
    const body = method === 'GET' || method === 'HEAD' ? undefined : streamedBody(c.req.raw);
    const controller = new AbortController();
    const request = new Request(target, { method, headers, body, signal: controller.signal, redirect: 'manual' });

    shareNote(request, c.get('requestNote'));
    try {
      const send = upstreamBase ? fetch(request) : Promise.resolve(embedded.fetch(request, c.env, c.executionCtx));
      return passedBack(await withTimeout(send, timeoutMs, controller));
    } catch (error) {
      if (error instanceof TimeoutError) {
        return c.json({ message: `The API did not answer within ${timeoutMs / 1000} seconds` }, 504);
      }
      console.error('passthrough: target unreachable', error);
      return c.json({ message: 'The API is unreachable' }, 502);
    }
  };
