import { claimDelivery, markDelivered, markFailed, type Outcome, type PendingDelivery } from '../db/webhooks';
import { refusedAddress, resolveOverHttps, type Resolve } from './address-guard';
import { signWebhook } from './sign';

/** What the queue carries: only the delivery's id; the row holds the rest (docs/architecture.md). */
export interface WebhookMessage {
  deliveryId: string;
}

export interface ConsumerBindings {
  DB: D1Database;
  /** "true": plain http and loopback receivers are allowed (local runs and tests only). */
  WEBHOOK_ALLOW_LOOPBACK?: string;
  /** Divides the retry delays; only the bench sets it, so a day of retries fits in minutes. */
  WEBHOOK_RETRY_DIVISOR?: string;
}

/** Seconds before each retry after a failed attempt (docs/api.md#webhooks): 1 min, 5, 30, 2 h, 5 h, 10 h. */
export const RETRY_DELAYS = [60, 300, 1_800, 7_200, 18_000, 36_000] as const;
const TIMEOUT_MS = 10_000;

export interface ConsumerDeps {
  fetch: typeof fetch;
  resolve: Resolve;
  now: () => number;
}

export const defaultDeps = (): ConsumerDeps => ({ fetch: (input, init) => fetch(input, init), resolve: resolveOverHttps(), now: () => Date.now() });

const send = async (delivery: PendingDelivery, env: ConsumerBindings, deps: ConsumerDeps): Promise<Outcome & { ok: boolean }> => {
  const refused = await refusedAddress(delivery.url, env.WEBHOOK_ALLOW_LOOPBACK === 'true', deps.resolve).catch((error: unknown) => `Address check failed: ${String(error)}`);
  if (refused) return { ok: false, status: null, ms: null, error: refused };
  const timestamp = Math.floor(deps.now() / 1000);
  const started = deps.now();
  try {
    const response = await deps.fetch(delivery.url, {
      method: 'POST',
      body: delivery.payload,
      // A redirect could lead anywhere, past the address check: a 3xx counts as a failure.
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: {
        'content-type': 'application/json',
        'webhook-id': delivery.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': await signWebhook(delivery.secret, delivery.id, timestamp, delivery.payload),
      },
    });
    await response.body?.cancel();
    const ok = response.status >= 200 && response.status < 300;
    return { ok, status: response.status, ms: deps.now() - started, error: ok ? null : `Answered ${response.status}` };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    return { ok: false, status: null, ms: deps.now() - started, error: timedOut ? 'No answer within 10 s' : `Could not connect: ${String(error)}` };
  }
};

/**
 * One attempt at one delivery. Answers the seconds until the next attempt, or null when there is
 * none (delivered, failed for good, or nothing to send).
 */
export const deliver = async (deliveryId: string, env: ConsumerBindings, deps: ConsumerDeps): Promise<number | null> => {
  const delivery = await claimDelivery(env.DB, deliveryId);
  if (!delivery) return null;
  const outcome = await send(delivery, env, deps);
  if (outcome.ok) {
    await markDelivered(env.DB, delivery, outcome);
    return null;
  }
  const delay = RETRY_DELAYS[delivery.attempt - 1];
  const divisor = Math.max(1, Number(env.WEBHOOK_RETRY_DIVISOR) || 1);
  const retryIn = delay === undefined ? null : Math.max(0, Math.round(delay / divisor));
  await markFailed(env.DB, delivery, outcome, retryIn);
  return retryIn;
};

/**
 * The Worker's `queue()` handler for WEBHOOKS. Each message is acked once its attempt is recorded,
 * or retried with the schedule's delay; an error of our own (D1 down) retries the message, and
 * after the queue's max_retries it lands in the dead-letter queue, the row still `queued`.
 */
export const handleWebhookBatch = async (batch: MessageBatch<WebhookMessage>, env: ConsumerBindings, deps: ConsumerDeps = defaultDeps()) => {
  for (const message of batch.messages) {
    try {
      const retryIn = await deliver(message.body.deliveryId, env, deps);
      if (retryIn === null) message.ack();
      else message.retry({ delaySeconds: retryIn });
    } catch (error) {
      console.error(JSON.stringify({ event: 'webhook_consumer_error', deliveryId: message.body.deliveryId, error: String(error) }));
      message.retry();
    }
  }
};
