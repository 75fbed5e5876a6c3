import type { MiddlewareHandler } from 'hono';
import { deliveriesOfRequest } from '../db/webhooks';
import type { ProviderBindings } from '../env';
import { committedWrite, requestIdOf } from '../http/audit-context';
import type { ProviderEnv } from '../http/auth';

/** Queues take at most 100 messages per sendBatch. */
const SEND_BATCH = 100;

/** Puts deliveries on the WEBHOOKS queue; the rows are already committed, so a lost send is only late (retry resends it). */
export const enqueueDeliveries = async (env: ProviderBindings, ids: string[]) => {
  if (!env.WEBHOOKS) return;
  for (let start = 0; start < ids.length; start += SEND_BATCH) {
    await env.WEBHOOKS.sendBatch(ids.slice(start, start + SEND_BATCH).map((deliveryId) => ({ body: { deliveryId }, contentType: 'json' as const })));
  }
};

/**
 * After a signed-in write has answered with success its batch has committed, with the delivery
 * rows its events wrote (docs/architecture.md#webhooks); they go on the queue without holding up
 * the answer. One indexed read per write finds them.
 */
export const enqueueWebhooks: MiddlewareHandler<ProviderEnv> = async (c, next) => {
  await next();
  const requestId = requestIdOf(c);
  if (!committedWrite(c) || !requestId || !c.env.WEBHOOKS) return;
  c.executionCtx.waitUntil(
    deliveriesOfRequest(c.env.DB, requestId)
      .then((ids) => enqueueDeliveries(c.env, ids))
      .catch((error: unknown) => console.error('webhooks: enqueue failed', error)),
  );
};
