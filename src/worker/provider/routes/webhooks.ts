import { Hono } from 'hono';
import { createWebhookSchema, deliveryListQuerySchema, updateWebhookSchema } from '../../../shared/schemas/webhooks';
import type { CreatedWebhook, Webhook, WebhookDelivery } from '../../../shared/schemas/webhooks';
import type { Page } from '../../../shared/types';
import { createWebhook, findWebhook, listDeliveries, listWebhooks, removeWebhook, requeueDelivery, testDelivery, updateWebhook, waitingDeliveries } from '../db/webhooks';
import { auditContext } from '../http/audit-context';
import { assertMay, requireAuth, type ProviderEnv } from '../http/auth';
import { badRequest } from '../http/errors';
import { readId } from '../http/params';
import { jsonBody, queryOf } from '../http/validate';
import { refusedAddress, resolveOverHttps } from '../webhooks/address-guard';
import { enqueueDeliveries } from '../webhooks/enqueue';
import { newWebhookSecret } from '../webhooks/sign';
import type { Context } from 'hono';

/**
 * Webhooks (docs/api.md#webhooks), for admins. An address is checked when it is saved, so a typo
 * or a private address is refused at once; the consumer checks it again before every send,
 * because a host name's DNS answers can change.
 */
const assertAddress = async (c: Context<ProviderEnv>, url: string | undefined) => {
  if (url === undefined) return;
  const refused = await refusedAddress(url, c.env.WEBHOOK_ALLOW_LOOPBACK === 'true', resolveOverHttps());
  if (refused) throw badRequest(refused, { url: [refused] });
};

const DELIVERY_ID = /^msg_[0-9a-f]{32}$/;

export const webhookRoutes = new Hono<ProviderEnv>()
  .use(requireAuth)
  .use(async (c, next) => {
    await assertMay(c, 'manageWebhooks');
    await next();
  })
  .get('/', async (c) => c.json<{ items: Webhook[] }>({ items: await listWebhooks(c.env.DB) }))
  .post('/', jsonBody(createWebhookSchema), async (c) => {
    const payload = c.req.valid('json');
    await assertAddress(c, payload.url);
    const secret = newWebhookSecret();
    const created = await createWebhook(c.env.DB, payload, secret, auditContext(c));
    return c.json<CreatedWebhook>({ ...created, secret }, 201);
  })
  .get('/:id', async (c) => c.json<Webhook>(await findWebhook(c.env.DB, readId(c))))
  .patch('/:id', jsonBody(updateWebhookSchema), async (c) => {
    const id = readId(c);
    const changes = c.req.valid('json');
    await assertAddress(c, changes.url);
    const updated = await updateWebhook(c.env.DB, id, changes, auditContext(c));
    if (changes.active === true) await enqueueDeliveries(c.env, await waitingDeliveries(c.env.DB, id));
    return c.json<Webhook>(updated);
  })
  .delete('/:id', async (c) => {
    await removeWebhook(c.env.DB, readId(c), auditContext(c));
    return c.body(null, 204);
  })
  .get('/:id/deliveries', queryOf(deliveryListQuerySchema), async (c) =>
    c.json<Page<WebhookDelivery>>(await listDeliveries(c.env.DB, readId(c), c.req.valid('query'))),
  )
  .post('/:id/deliveries/:deliveryId/retry', async (c) => {
    const deliveryId = c.req.param('deliveryId');
    if (!DELIVERY_ID.test(deliveryId)) throw badRequest('Not a delivery id', { deliveryId: ['Not a delivery id'] });
    const delivery = await requeueDelivery(c.env.DB, readId(c), deliveryId);
    await enqueueDeliveries(c.env, [delivery.id]);
    return c.json<WebhookDelivery>(delivery, 202);
  })
  .post('/:id/test', async (c) => {
    const delivery = await testDelivery(c.env.DB, readId(c), c.get('userId'));
    await enqueueDeliveries(c.env, [delivery.id]);
    return c.json<WebhookDelivery>(delivery, 202);
  });
