import { Hono } from 'hono';
import { ATTACHMENTS_PER_TICKET, isImageType } from '../../../shared/schemas/attachments';
import { may } from '../../../shared/permissions';
import { attachmentCount, deleteAttachment, findAttachment, insertAttachment, listAttachments, refusalOf } from '../db/attachments';
import { ticketExists } from '../db/tickets';
import { Conflict, Invalid, NotFound } from '../errors/domain';
import { receiveUpload } from '../files/upload';
import { auditContext } from '../http/audit-context';
import { requireAuth, type ProviderEnv } from '../http/auth';
import { HttpError, forbidden } from '../http/errors';
import { foundOr404, readId } from '../http/params';
import { contentHeaders } from '../files/serve';

const givenUp = () => new HttpError(503, { message: 'The upload arrived after the Worker had stopped waiting; nothing was kept' });
const full = () => new Conflict(`A ticket holds at most ${ATTACHMENTS_PER_TICKET} files; delete one first`);

const REFUSALS = {
  ticket: () => new NotFound('Ticket not found'),
  comment: () => new Invalid('That comment is not on this ticket', { commentId: ['That comment is not on this ticket'] }),
  full,
};

/**
 * Files on tickets (README "Attachments"), kept in the FILES bucket under attachments/<ticketId>/<uuid>.
 * Mounted at the API root; each route signs in on its own, like the audit routes.
 */
export const attachmentRoutes = new Hono<ProviderEnv>()
  .get('/tickets/:id/attachments', requireAuth, async (c) => {
    const id = readId(c);
    foundOr404((await ticketExists(c.env.DB, id)) ? id : null, 'Ticket');
    return c.json({ items: await listAttachments(c.env.DB, id) });
  })
  .post('/tickets/:id/attachments', requireAuth, async (c) => {
    const ticketId = readId(c);
    // Turned away before a byte is stored; the INSERT checks both again.
    foundOr404((await ticketExists(c.env.DB, ticketId)) ? ticketId : null, 'Ticket');
    if ((await attachmentCount(c.env.DB, ticketId)) >= ATTACHMENTS_PER_TICKET) throw full();
    const key = `attachments/${ticketId}/${crypto.randomUUID()}`;
    const file = await receiveUpload(c.req.raw, c.env.FILES, key);
    // The Worker stopped waiting (its 504 is with the person already): the file is not kept.
    if (c.req.raw.signal.aborted) {
      await c.env.FILES.delete(key);
      throw givenUp();
    }
    const inserted = await insertAttachment(c.env.DB, auditContext(c), { ...file, ticketId, key }).catch(async (error: unknown) => {
      await c.env.FILES.delete(key);
      throw error;
    });
    if (inserted) return c.json(inserted, 201);
    await c.env.FILES.delete(key);
    throw REFUSALS[await refusalOf(c.env.DB, ticketId, file.commentId)]();
  })
  .get('/attachments/:id/content', requireAuth, async (c) => {
    const found = foundOr404(await findAttachment(c.env.DB, readId(c)), 'Attachment');
    const object = foundOr404(await c.env.FILES.get(found.key), 'Attachment file');
    return new Response(object.body, { headers: contentHeaders(found.attachment, isImageType(found.attachment.contentType)) });
  })
  .delete('/attachments/:id', requireAuth, async (c) => {
    const id = readId(c);
    const { role } = await c.get('session');
    const key = await deleteAttachment(c.env.DB, id, auditContext(c), may(role, 'deleteAnyAttachment'));
    if (key === null) {
      foundOr404(await findAttachment(c.env.DB, id), 'Attachment');
      throw forbidden('You can only delete files you uploaded');
    }
    await c.env.FILES.delete(key);
    return c.body(null, 204);
  });
