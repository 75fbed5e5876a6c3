import { Hono } from 'hono';
import { searchQuerySchema } from '../../../shared/schemas/search';
import { search } from '../db/search';
import { requireAuth, type ProviderEnv } from '../http/auth';
import { readQuery } from '../http/validate';

export const searchRoutes = new Hono<ProviderEnv>()
  .use(requireAuth)
  .get('/', async (c) => c.json({ items: await search(c.env.DB, await readQuery(c, searchQuerySchema)) }));
