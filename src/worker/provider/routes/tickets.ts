import { Hono, type Context } from 'hono';
import { may } from '../../../shared/permissions';
import {
  commentSchema,
  newCommentSchema,
  createTicketSchema,
  ticketListQuerySchema,
  timeEntrySchema,
  updateTicketSchema,
  updateTimeEntrySchema,
} from '../../../shared/schemas/tickets';
import { insertTimeEntry, listComments, listTimeEntries } from '../db/ticket-activity';
import { addComment } from '../db/mail/public-reply';
import { deleteComment, deleteTimeEntry, updateComment, updateTimeEntry, type Corrector } from '../db/ticket-corrections';
import { listWatchers, setWatching } from '../db/watchers';
import { findTicket, insertTicket, listTickets, ticketExists, updateTicket } from '../db/tickets';
import { auditContext } from '../http/audit-context';
import { requireAuth, type ProviderEnv } from '../http/auth';
import { foundOr404, readId } from '../http/params';
import { jsonBody, queryOf } from '../http/validate';
import { readIfMatch, versioned } from '../http/versions';

const NOUN = 'Ticket';

/** The comment or time entry a correction names, with the If-Match version it was edited from. */
const correctionOf = async (c: Context<ProviderEnv>, idName: string) => {
  const target = { ticketId: readId(c), id: readId(c, idName), version: readIfMatch(c) };
  const by: Corrector = { ...auditContext(c), mayCorrectOthers: may((await c.get('session')).role, 'correctOthersActivity') };
  return { target, by };
};

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
  .post('/:id/comments', jsonBody(newCommentSchema), async (c) => {
    const id = await existingTicketId(c);
    const settings = { secret: c.env.JWT_SECRET, inbox: c.env.MAIL_INBOX };
    return c.json(await addComment(c.env.DB, settings, id, auditContext(c), c.req.valid('json')), 201);
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
  })
  .patch('/:id/comments/:commentId', jsonBody(commentSchema), async (c) => {
    const { target, by } = await correctionOf(c, 'commentId');
    return versioned(c, foundOr404(await updateComment(c.env.DB, target, by, c.req.valid('json')), 'Comment'));
  })
  .delete('/:id/comments/:commentId', async (c) => {
    const { target, by } = await correctionOf(c, 'commentId');
    foundOr404((await deleteComment(c.env.DB, target, by)) || null, 'Comment');
    return c.body(null, 204);
  })
  .patch('/:id/time-entries/:entryId', jsonBody(updateTimeEntrySchema), async (c) => {
    const { target, by } = await correctionOf(c, 'entryId');
    return versioned(c, foundOr404(await updateTimeEntry(c.env.DB, target, by, c.req.valid('json')), 'Time entry'));
  })
  .delete('/:id/time-entries/:entryId', async (c) => {
    const { target, by } = await correctionOf(c, 'entryId');
    foundOr404((await deleteTimeEntry(c.env.DB, target, by)) || null, 'Time entry');
    return c.body(null, 204);
  });
