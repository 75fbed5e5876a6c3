import type { Context } from 'hono';
import type { Env } from './env';

/** Static files and the SPA fallback; copied into a fresh Response so headers can be added. */
export const serveAssets = async (c: Context<{ Bindings: Env }>) => {
  const response = await c.env.ASSETS.fetch(c.req.raw);
  return new Response(response.body, response);
};
