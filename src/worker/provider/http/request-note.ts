import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { noteFor } from '../../request-log';
import type { ProviderEnv } from './auth';

/**
 * Tells the Worker's request log which route answered and whose token it accepted. Registered
 * patterns only ('/v1/users/:id'), never the address itself.
 */
export const noteRequest: MiddlewareHandler<ProviderEnv> = async (c, next) => {
  const note = noteFor(c.req.raw);
  if (!note) return next();
  try {
    await next();
  } finally {
    note.route = `/api${routePath(c, -1)}`;
    const userId = c.get('userId');
    if (userId !== undefined) note.userId = userId;
  }
};
