import { Hono, type Context } from 'hono';
import { commentSchema, createTicketSchema, ticketListQuerySchema, timeEntrySchema, updateTicketSchema } from '../../../shared/schemas/tickets';
import { insertComment, insertTimeEntry, listComments, listTimeEntries } from '../db/ticket-activity';
import { findTicket, insertTicket, listTickets, ticketExists, updateTicket } from '../db/tickets';
import { auditContext } from '../http/audit-context';
import { requireAuth, type ProviderEnv } from '../http/auth';
import { foundOr404, readId } from '../http/params';
import { readBody, readQuery } from '../http/validate';
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
  .get('/', async (c) => c.json(await listTickets(c.env.DB, await readQuery(c, ticketListQuerySchema))))
  .post('/', async (c) => c.json(await insertTicket(c.env.DB, await readBody(c, createTicketSchema), c.get('userId'), auditContext(c)), 201))
  .get('/:id', async (c) => versioned(c, foundOr404(await findTicket(c.env.DB, readId(c)), NOUN)))
  .patch('/:id', async (c) => {
    const id = readId(c);
    const version = readIfMatch(c);
    return versioned(c, foundOr404(await updateTicket(c.env.DB, id, await readBody(c, updateTicketSchema), auditContext(c), version), NOUN));
  })
  .get('/:id/comments', async (c) => c.json({ items: await listComments(c.env.DB, await existingTicketId(c)) }))
  .post('/:id/comments', async (c) => {
    const id = await existingTicketId(c);
    return c.json(await insertComment(c.env.DB, id, auditContext(c), await readBody(c, commentSchema)), 201);
  })
  .get('/:id/time-entries', async (c) => c.json({ items: await listTimeEntries(c.env.DB, await existingTicketId(c)) }))
  .post('/:id/time-entries', async (c) => {
    const id = await existingTicketId(c);
    return c.json(await insertTimeEntry(c.env.DB, id, auditContext(c), await readBody(c, timeEntrySchema)), 201);
  });
