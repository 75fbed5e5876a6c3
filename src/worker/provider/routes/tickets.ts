import { Hono, type Context } from 'hono';
import { commentSchema, createTicketSchema, ticketListQuerySchema, timeEntrySchema, updateTicketSchema } from '../../../shared/schemas/tickets';
import { insertComment, insertTimeEntry, listComments, listTimeEntries } from '../db/ticket-activity';
import { listWatchers, setWatching } from '../db/watchers';
import { findTicket, insertTicket, listTickets, ticketExists, updateTicket } from '../db/tickets';
import { auditContext } from '../http/audit-context';
import { requireAuth, type ProviderEnv } from '../http/auth';
import { foundOr404, readId } from '../http/params';
import { jsonBody, queryOf } from '../http/validate';
import { readIfMatch, versioned } from '../http/versions';

const NOUN = 'Ticket';

/** The ticket id from the path, 404 when no such ticket exists. */
const existingTicketId = async (c: Context<ProviderEnv>) => {
  const id = readId(c);
  foundOr404((await ticketExists(c.env.DB, id)) ? id : null, NOUN);
  return id;
};

export const ticketRoutes = new Hono<ProviderEnv>()
  .use(requireAuth)
  .get('/', queryOf(ticketListQuerySchema), async (c) => c.json(await listTickets(c.env.DB, c.req.valid('query'), c.get('userId'))))
  .post('/', jsonBody(createTicketSchema), async (c) => c.json(await insertTicket(c.env.DB, c.req.valid('json'), auditContext(c)), 201))
  .get('/:id', async (c) => versioned(c, foundOr404(await findTicket(c.env.DB, readId(c)), NOUN)))
  .patch('/:id', jsonBody(updateTicketSchema), async (c) => {
    const id = readId(c);
    const version = readIfMatch(c);
    return versioned(c, foundOr404(await updateTicket(c.env.DB, id, c.req.valid('json'), auditContext(c), version), NOUN));
  })
  .get('/:id/comments', async (c) => c.json({ items: await listComments(c.env.DB, await existingTicketId(c)) }))
  .post('/:id/comments', jsonBody(commentSchema), async (c) => {
    const id = await existingTicketId(c);
    return c.json(await insertComment(c.env.DB, id, auditContext(c), c.req.valid('json')), 201);
  })
  .get('/:id/watchers', async (c) => c.json(await listWatchers(c.env.DB, await existingTicketId(c), c.get('userId'))))
  .put('/:id/watchers/me', async (c) => {
    await setWatching(c.env.DB, await existingTicketId(c), c.get('userId'), true);
    return c.body(null, 204);
  })
  .delete('/:id/watchers/me', async (c) => {
    await setWatching(c.env.DB, await existingTicketId(c), c.get('userId'), false);
    return c.body(null, 204);
  })
  .get('/:id/time-entries', async (c) => c.json({ items: await listTimeEntries(c.env.DB, await existingTicketId(c)) }))
  .post('/:id/time-entries', jsonBody(timeEntrySchema), async (c) => {
    const id = await existingTicketId(c);
    return c.json(await insertTimeEntry(c.env.DB, id, auditContext(c), c.req.valid('json')), 201);
  });
