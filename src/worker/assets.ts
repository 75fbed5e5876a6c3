import type { Context } from 'hono';
import type { Env } from './env';

/** Where Vite writes the build's files, each named by a hash of its content. */
export const BUILD_FILES_PREFIX = '/assets/';

// A file whose name changes with its content never changes under that name, so a browser may keep
// it for a year without asking again. Pages keep the asset server's revalidation, so a deploy
// shows on the next visit.
export const BUILD_FILE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

// A path whose last part has an extension asks for a file; a page's path has none.
const FILE_PATH = /\/[^/]*\.[A-Za-z0-9]+$/;

// Source maps are built (`hidden`, so no bundle points at them) for ops to upload to an error
// tracker from dist/client/assets/, but never served: they hold the full source.
const SOURCE_MAP = /\.map$/i;

const notFound = async (c: Context, response?: Response) => {
  await response?.body?.cancel();
  return c.text('Not Found', 404);
};

/**
 * Static files and the SPA fallback; copied into a fresh Response so headers can be added. A
 * missing file (an old tab asking for a chunk a deploy removed, a robot asking for a file that
 * is not there) is a 404: the fallback page would reach the browser as a script, a style sheet
 * or an image, and a build file's could be cached as one for a year. Page paths keep the fallback.
 */
export const serveAssets = async (c: Context<{ Bindings: Env }>) => {
  const { path } = c.req;
  if (SOURCE_MAP.test(path)) return notFound(c);
  const response = await c.env.ASSETS.fetch(c.req.raw);
  const isFile = path.startsWith(BUILD_FILES_PREFIX) || FILE_PATH.test(path);
  if (isFile && !path.endsWith('.html') && response.headers.get('content-type')?.startsWith('text/html')) return notFound(c, response);
  if (!path.startsWith(BUILD_FILES_PREFIX)) return new Response(response.body, response);
  const copy = new Response(response.body, response);
  if (response.ok || response.status === 304) copy.headers.set('cache-control', BUILD_FILE_CACHE_CONTROL);
  return copy;
};
