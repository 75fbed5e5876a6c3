/**
 * What the local upstream of upstream-server.global.ts answers, shared by the server (Node) and the
 * passthrough tests (workerd) so both sides agree on exact bodies. Import nothing here: this module
 * is loaded in both runtimes.
 */

/** Size of the body `GET /v1/big` streams. */
export const BIG_BODY_BYTES = 5 * 1024 * 1024;

/** Declared length and the part `GET /v1/reset` writes before it destroys the socket. */
export const RESET_DECLARED_BYTES = 100_000;
export const RESET_SENT_TEXT = 'partial body, then the connection drops';

export const HOP_RESPONSE_HEADERS = {
  connection: 'close',
  'keep-alive': 'timeout=5',
  'set-cookie': 'upstream_session=secret; Path=/',
  'x-custom': 'kept',
} as const;

export const TEXT_BODY = '<!doctype html><p>not JSON</p>';

/** The body `GET /v1/status/<code>` answers with; 204 has none. */
export const statusBody = (code: number): { contentType: string; text: string } | null => {
  if (code === 204) return null;
  if (code >= 500) return { contentType: 'text/plain; charset=utf-8', text: 'upstream broke' };
  return { contentType: 'application/json', text: JSON.stringify({ status: code, from: 'upstream' }) };
};

/** What `/v1/echo` replies: the request exactly as the upstream saw it. */
export interface EchoReply {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** What `/v1/count/<key>` replies; the same count is readable at `GET /hits/<key>`. */
export interface CountReply {
  key: string;
  hits: number;
  bytes: number;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** A running upstream, e.g. `http://127.0.0.1:43123`. */
    upstreamUrl: string;
    /** An address where nothing listens. */
    closedUrl: string;
  }
}
