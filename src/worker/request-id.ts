import type { MiddlewareHandler } from 'hono';
import type { RequestIdVariables } from 'hono/request-id';

// A caller's own id is kept only when it is plainly an id: long enough not to collide by
// accident, short, and made of characters that cannot break a log line or a header.
const CALLER_REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

/**
 * Gives every API request an id: the caller's X-Request-Id when it is well formed, else a new
 * random one. It is answered in X-Request-Id and forwarded upstream, so logs on both sides meet.
 */
export const requestIds = (): MiddlewareHandler<{ Variables: RequestIdVariables }> => async (c, next) => {
  const sent = c.req.header('x-request-id');
  const id = sent !== undefined && CALLER_REQUEST_ID.test(sent) ? sent : crypto.randomUUID();
  c.set('requestId', id);
  await next();
  // Set on the answer rather than through c.header() first, which makes Hono copy the answer.
  c.res.headers.set('X-Request-Id', id);
};
