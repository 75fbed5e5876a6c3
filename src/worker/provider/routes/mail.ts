import { Hono } from 'hono';
import { mailLogQuerySchema, notificationSettingsSchema } from '../../../shared/schemas/mail';
import { findMail, listMail } from '../db/mail/log';
import { readNotificationSettings, saveNotificationSettings } from '../db/mail/settings';
import { auditContext } from '../http/audit-context';
import { requireAuth, requireRole, type ProviderEnv } from '../http/auth';
import { readId } from '../http/params';
import { jsonBody, queryOf } from '../http/validate';

/** `users/me/notification-settings`: the caller's own mail delivery per notification kind (docs/api.md#mail). */
export const notificationSettingsRoutes = new Hono<ProviderEnv>()
  .use(requireAuth)
  .get('/', async (c) => c.json(await readNotificationSettings(c.env.DB, c.get('userId'))))
  .put('/', jsonBody(notificationSettingsSchema), async (c) => c.json(await saveNotificationSettings(c.env.DB, auditContext(c), c.req.valid('json'))));

/** `settings/mail`: the mail log, for admins only: it holds recipients and bodies. */
export const mailLogRoutes = new Hono<ProviderEnv>()
  .use(requireAuth, requireRole('readMailLog'))
  .get('/', queryOf(mailLogQuerySchema), async (c) => c.json(await listMail(c.env.DB, c.req.valid('query'))))
  .get('/:id', async (c) => c.json(await findMail(c.env.DB, readId(c))));
