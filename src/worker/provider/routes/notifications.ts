import { Hono } from 'hono';
import { markReadSchema, notificationListQuerySchema } from '../../../shared/schemas/notifications';
import { listNotifications, markNotificationsRead } from '../db/notifications';
import { requireAuth, type ProviderEnv } from '../http/auth';
import { jsonBody, queryOf } from '../http/validate';

export const notificationRoutes = new Hono<ProviderEnv>()
  .use(requireAuth)
  .get('/', queryOf(notificationListQuerySchema), async (c) => c.json(await listNotifications(c.env.DB, c.get('userId'), c.req.valid('query'))))
  .post('/read', jsonBody(markReadSchema), async (c) => c.json(await markNotificationsRead(c.env.DB, c.get('userId'), c.req.valid('json').ids)));
