import type { Context } from 'hono';
import type { Env } from './env';

/** Where Vite writes the build's files, each named by a hash of its content. */
export const BUILD_FILES_PREFIX = '/assets/';

// A file whose name changes with its content never changes under that name, so a browser may keep
// it for a year without asking again. Pages keep the asset server's revalidation, so a deploy
// shows on the next visit.
export const BUILD_FILE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * Static files and the SPA fallback; copied into a fresh Response so headers can be added. A
 * missing build file (an old tab asking for a chunk a deploy removed) is a 404: the fallback page
 * would reach the browser as a script or a style sheet, and could be cached as one for a year.
 */
export const serveAssets = async (c: Context<{ Bindings: Env }>) => {
  const response = await c.env.ASSETS.fetch(c.req.raw);
  if (!c.req.path.startsWith(BUILD_FILES_PREFIX)) return new Response(response.body, response);
  if (response.headers.get('content-type')?.startsWith('text/html')) {
    await response.body?.cancel();
    return c.text('Not Found', 404);
  }
  const copy = new Response(response.body, response);
  if (response.ok || response.status === 304) copy.headers.set('cache-control', BUILD_FILE_CACHE_CONTROL);
  return copy;
};
