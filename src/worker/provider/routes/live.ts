import { Hono } from 'hono';
import { LIVE_TICKET_SECONDS, LIVE_TICKETS_PER_PERSON, liveEntitiesOf } from '../../../shared/live';
import { liveChangesQuerySchema, liveQuerySchema } from '../../../shared/schemas/live';
import { changesAfter } from '../db/live';
import { requireAuth, type ProviderEnv } from '../http/auth';
import { HttpError, unauthorized } from '../http/errors';
import { queryOf } from '../http/validate';
import { teamHub } from '../live/team-hub';

const TOO_MANY_TICKETS = `You hold ${LIVE_TICKETS_PER_PERSON} unused live tickets; use one or wait until they expire`;

export const liveRoutes = new Hono<ProviderEnv>()
  // A ticket rather than the token in the socket's address, which logs and histories keep.
  .post('/ticket', requireAuth, async (c) => {
    c.set('live', 'wroteNothing');
    const ticket = await teamHub(c.env).issueTicket(c.get('token'));
    if (!ticket) throw new HttpError(429, { message: TOO_MANY_TICKETS }, { 'Retry-After': String(LIVE_TICKET_SECONDS) });
    return c.json(ticket);
  })
  // A client back after a gap re-reads only these, told of exactly what its socket would have been.
  .get('/changes', requireAuth, queryOf(liveChangesQuerySchema), async (c) => {
    const { after } = c.req.valid('query');
    const { role } = await c.get('session');
    return c.json(await changesAfter(c.env.DB, after, liveEntitiesOf(role)));
  })
  // The hub checks and spends the ticket: 401 before any upgrade when it is missing, used or expired.
  .get('/', queryOf(liveQuerySchema), async (c) => {
    if (!c.req.valid('query').ticket) throw unauthorized('A live ticket is required');
    return teamHub(c.env).fetch(c.req.raw);
  });
