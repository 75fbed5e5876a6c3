import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { RequestIdVariables } from 'hono/request-id';
import { API_BASE, MAX_REQUEST_BODY_BYTES } from '../shared/constants';
import type { Env } from './env';
import { passthrough, type PassthroughOptions } from './passthrough';
import { provider } from './provider';
import { requestIds } from './request-id';
import { securityHeaders } from './security-headers';
import { serveAssets } from './assets';

// Every path under /api, in any case, is the API's: one that is not exactly /api/v1/… answers a
// JSON 404 instead of falling through to the app's page.
const API_PATH = /^\/api(?:\/|$)/i;
const isApiPath = (path: string) => API_PATH.test(path);

type WorkerEnv = { Bindings: Env; Variables: RequestIdVariables };

export const createApp = (options: Omit<PassthroughOptions, 'embedded'> = {}) =>
  new Hono<WorkerEnv>()
    .use(securityHeaders())
    .use(async (c, next) => {
      if (!isApiPath(c.req.path)) return next();
      await next();
      // Answers carry tokens, people's details and exports: no browser or proxy may keep them.
      c.res.headers.set('Cache-Control', 'no-store');
    })
    .use(`${API_BASE}/*`, requestIds())
    .use(
      `${API_BASE}/*`,
      bodyLimit({
        maxSize: MAX_REQUEST_BODY_BYTES,
        onError: (c) => c.json({ message: 'Request body is larger than 10 MB' }, 413),
      }),
    )
    .all(`${API_BASE}/*`, passthrough({ ...options, embedded: provider }))
    .all('*', (c, next) => (isApiPath(c.req.path) ? c.json({ message: 'Not Found' }, 404) : next()))
    .all('*', serveAssets);

export default createApp();
