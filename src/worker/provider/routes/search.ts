import { Hono } from 'hono';
import { searchQuerySchema } from '../../../shared/schemas/search';
import { search } from '../db/search';
import { requireAuth, type ProviderEnv } from '../http/auth';
import { queryOf } from '../http/validate';

export const searchRoutes = new Hono<ProviderEnv>()
  .use(requireAuth)
  .get('/', queryOf(searchQuerySchema), async (c) => c.json({ items: await search(c.env.DB, c.req.valid('query')) }));
