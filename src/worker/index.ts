import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { requestId, type RequestIdVariables } from 'hono/request-id';
import { API_BASE, MAX_REQUEST_BODY_BYTES } from '../shared/constants';
import type { Env } from './env';
import { passthrough, type PassthroughOptions } from './passthrough';
import { provider } from './provider';
import { scheduled } from './scheduled';
import { securityHeaders } from './security-headers';
import { serveAssets } from './assets';

export const createApp = (options: Omit<PassthroughOptions, 'embedded'> = {}) =>
  new Hono<{ Bindings: Env; Variables: RequestIdVariables }>()
    .use(securityHeaders())
    .use(`${API_BASE}/*`, requestId({ limitLength: 128 }))
    .use(
      `${API_BASE}/*`,
      bodyLimit({
        maxSize: MAX_REQUEST_BODY_BYTES,
        onError: (c) => c.json({ message: 'Request body is larger than 10 MB' }, 413),
      }),
    )
    .all(`${API_BASE}/*`, passthrough({ ...options, embedded: provider }))
    .all(`${API_BASE}`, (c) => c.json({ message: 'Not Found' }, 404))
    .all('*', serveAssets);

const app = createApp();

export default { fetch: app.fetch, scheduled } satisfies ExportedHandler<Env>;
