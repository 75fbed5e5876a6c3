import type { MiddlewareHandler } from 'hono';
import type { RequestIdVariables } from 'hono/request-id';
import type { Env } from './env';
import type { RequestNote } from './provider';

export type RequestLogVariables = RequestIdVariables & { requestNote: RequestNote };

/**
 * A route pattern for requests the embedded provider did not name (an upstream's, or one no
 * route matched): numbers become `:id`, and any other segment that is not a plain word is
 * dropped, so no id, token or key from the address reaches the log.
 */
export const routeOf = (path: string) =>
  path
    .split('/')
    .map((segment) => (/^\d+$/.test(segment) ? ':id' : /^[a-z][a-z0-9-]*(\.csv)?$/i.test(segment) ? segment : ':value'))
    .join('/');

export interface RequestLogLine {
  at: string;
  requestId: string;
  method: string;
  route: string;
  status: number;
  ms: number;
  userId: number | null;
}

/**
 * One JSON line per API request (docs/operations.md#logs) for Workers Logs: never a body, a header, a token
 * or a query value.
 */
// eslint-disable-next-line no-console -- the request log is this console output; Workers Logs keeps it.
const toConsole = (line: string) => console.log(line);

export const requestLog = (write: (line: string) => void = toConsole): MiddlewareHandler<{ Bindings: Env; Variables: RequestLogVariables }> =>
  async (c, next) => {
    const started = performance.now();
    const note: RequestNote = {};
    c.set('requestNote', note);
    await next();
    const line: RequestLogLine = {
      at: new Date().toISOString(),
      requestId: c.get('requestId'),
      method: c.req.method,
      route: note.route ?? routeOf(c.req.path),
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      userId: note.userId ?? null,
    };
    write(JSON.stringify(line));
  };
