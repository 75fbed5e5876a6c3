import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { ProviderEnv } from './auth';

/**
 * What only the API that answered knows: the route pattern it matched and whose token it
 * accepted. The Worker's passthrough hands the provider its request log's note along with the
 * Request it forwards, and the provider fills it in. The provider owns this channel, so it imports
 * nothing of the Worker.
 */
export interface RequestNote {
  route?: string;
  userId?: number;
}

const notes = new WeakMap<Request, RequestNote>();

/** Lets the provider, when it receives `forwarded`, write into the note of the request it serves. */
export const shareNote = (forwarded: Request, note: RequestNote | undefined) => {
  if (note) notes.set(forwarded, note);
};

const noteFor = (request: Request): RequestNote | undefined => notes.get(request);

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
