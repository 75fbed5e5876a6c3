import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { API_BASE, MAX_REQUEST_BODY_BYTES } from '../shared/constants';
import type { Env } from './env';
import { health } from './health';
import { passthrough, type PassthroughOptions } from './passthrough';
import { handleWebhookBatch, provider, receiveMail, refuseMail, type WebhookMessage } from './provider';
import { requestIds } from './request-id';
import { requestLog, type RequestLogVariables } from './request-log';
import { scheduled } from './scheduled';
import { securityHeaders } from './security-headers';
import { serveAssets } from './assets';

// Every path under /api, in any case, is the API's: one that is not exactly /api/v1/… answers a
// JSON 404 instead of falling through to the app's page.
const API_PATH = /^\/api(?:\/|$)/i;
const isApiPath = (path: string) => API_PATH.test(path);

const jsonBodyLimit = bodyLimit({
  maxSize: MAX_REQUEST_BODY_BYTES,
  onError: (c) => c.json({ message: 'Request body is larger than 10 MiB' }, 413),
});

// An attachment upload streams through to its target, which counts it against its own limit
// (25 MiB); Hono's body limit would read a body of unknown length whole first.
const UPLOAD_PATH = new RegExp(`^${API_BASE}/tickets/[^/]+/attachments/?$`);
const isUpload = (method: string, path: string) => method === 'POST' && UPLOAD_PATH.test(path);

export interface AppOptions extends Omit<PassthroughOptions, 'embedded'> {
  /** Where the request log goes; tests capture it, the product writes to the console. */
  log?: (line: string) => void;
}

export const createApp = (options: AppOptions = {}) =>
  new Hono<{ Bindings: Env; Variables: RequestLogVariables }>()
    .use(securityHeaders())
    .use(async (c, next) => {
      if (!isApiPath(c.req.path)) return next();
      await next();
      // Answers carry tokens, people's details and exports: no browser or proxy may keep them.
      c.res.headers.set('Cache-Control', 'no-store');
    })
    .use(`${API_BASE}/*`, requestIds())
    .use(`${API_BASE}/*`, requestLog(options.log))
    .use(`${API_BASE}/*`, (c, next) => (isUpload(c.req.method, c.req.path) ? next() : jsonBodyLimit(c, next)))
    .all(`${API_BASE}/*`, passthrough({ ...options, embedded: provider }))
    .get('/healthz', health)
    .all('*', (c, next) => (isApiPath(c.req.path) ? c.json({ message: 'Not Found' }, 404) : next()))
    .all('*', serveAssets);

const app = createApp();

// Durable Object classes are exported by the Worker's main module.
export { LiveHub } from './provider';

export default {
  fetch: app.fetch,
  scheduled,
  // Webhook deliveries, sent after commit (docs/architecture.md#webhooks).
  queue: (batch: MessageBatch<WebhookMessage>, env: Env) => handleWebhookBatch(batch, env),
  // Mail in: tickets and replies from Email Routing (docs/architecture.md#mail). With an upstream
  // API the tickets are not in this D1 database, so mail is refused rather than lost.
  email: async (message: ForwardableEmailMessage, env: Env, ctx: ExecutionContext) => {
    if (env.UPSTREAM_API_URL?.trim()) return refuseMail(message, 'This deployment does not take mail');
    await receiveMail(message, env, ctx);
  },
} satisfies ExportedHandler<Env, WebhookMessage>;
