import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { requestId } from 'hono/request-id';
import { API_BASE, MAX_REQUEST_BODY_BYTES } from '../shared/constants';
import type { Env } from './env';
import { health } from './health';
import { passthrough, type PassthroughOptions } from './passthrough';
import { provider } from './provider';
import { requestLog, type RequestLogVariables } from './request-log';
import { securityHeaders } from './security-headers';
import { serveAssets } from './assets';

export interface AppOptions extends Omit<PassthroughOptions, 'embedded'> {
  /** Where the request log goes; tests capture it, the product writes to the console. */
  log?: (line: string) => void;
}

export const createApp = (options: AppOptions = {}) =>
  new Hono<{ Bindings: Env; Variables: RequestLogVariables }>()
    .use(securityHeaders())
    .use(`${API_BASE}/*`, requestId({ limitLength: 128 }))
    .use(`${API_BASE}/*`, requestLog(options.log))
    .use(
      `${API_BASE}/*`,
      bodyLimit({
        maxSize: MAX_REQUEST_BODY_BYTES,
        onError: (c) => c.json({ message: 'Request body is larger than 10 MB' }, 413),
      }),
    )
    .all(`${API_BASE}/*`, passthrough({ ...options, embedded: provider }))
    .all(`${API_BASE}`, (c) => c.json({ message: 'Not Found' }, 404))
    .get('/healthz', health)
    .all('*', serveAssets);

export default createApp();
