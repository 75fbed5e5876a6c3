import { Hono } from 'hono';
import { liveQuerySchema } from '../../../shared/schemas/live';
import { requireAuth, type ProviderEnv } from '../http/auth';
import { unauthorized } from '../http/errors';
import { queryOf } from '../http/validate';
import { teamHub } from '../live/team-hub';

export const liveRoutes = new Hono<ProviderEnv>()
  // A ticket rather than the token in the socket's address, which logs and histories keep.
  .post('/ticket', requireAuth, async (c) => c.json(await teamHub(c.env).issueTicket(c.get('token'))))
  // The hub checks and spends the ticket: 401 before any upgrade when it is missing, used or expired.
  .get('/', queryOf(liveQuerySchema), async (c) => {
    if (!c.req.valid('query').ticket) throw unauthorized('A live ticket is required');
    return teamHub(c.env).fetch(c.req.raw);
  });
