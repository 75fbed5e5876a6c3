import type { DeliveryListQuery, Webhook, WebhookChanges, WebhookDelivery, WebhookEvent, WebhookPayload } from '../../../shared/schemas/webhooks';
import { WEBHOOK_FAILURE_LIMIT } from '../../../shared/schemas/webhooks';
import { NotFound } from '../errors/domain';
import { auditCreated, auditDeleted, auditUpdated, jsonColumn, jsonFlag, type AuditContext, type AuditFields } from './audit';
import { readPage } from './pagination';
import { written } from './rows';

/**
 * Webhooks and their delivery log (docs/api.md#webhooks). Deliveries are an outbox: a change
 * that has an event writes its delivery rows in its own batch (webhookOutbox), and the queue
 * consumer (webhooks/consumer.ts) sends them after commit.
 */

interface WebhookRow {
  id: number;
  url: string;
  events: string;
  active: number;
  created_at: string;
  consecutive_failures: number;
}

const COLUMNS = 'id, url, events, active, created_at, consecutive_failures';

const toWebhook = (row: WebhookRow): Webhook => ({
  id: row.id,
  url: row.url,
  events: JSON.parse(row.events) as WebhookEvent[],
  active: row.active === 1,
  createdAt: row.created_at,
  consecutiveFailures: row.consecutive_failures,
});

/** What a hook's audit entries record: never its secret. */
const AUDIT_FIELDS: AuditFields = { url: jsonColumn('url'), events: 'r.events', active: jsonFlag('active') };
const AUDIT = { entity: 'webhook', table: 'webhooks', fields: AUDIT_FIELDS } as const;

export const listWebhooks = async (db: D1Database) =>
  (await db.prepare(`SELECT ${COLUMNS} FROM webhooks ORDER BY id`).all<WebhookRow>()).results.map(toWebhook);

export const findWebhook = async (db: D1Database, id: number) => {
  const row = await db.prepare(`SELECT ${COLUMNS} FROM webhooks WHERE id = ?1`).bind(id).first<WebhookRow>();
  if (!row) throw new NotFound('Webhook not found');
  return toWebhook(row);
};

export const createWebhook = async (db: D1Database, hook: WebhookPayload, secret: string, audit: AuditContext) => {
  const [inserted] = await db.batch<WebhookRow>([
    db.prepare(`INSERT INTO webhooks (url, events, active, secret) VALUES (?1, ?2, ?3, ?4) RETURNING ${COLUMNS}`).bind(hook.url, JSON.stringify(hook.events), hook.active ? 1 : 0, secret),
    auditCreated(db, audit, AUDIT),
  ]);
  return toWebhook(written(inserted?.results[0], 'webhook'));
};

/** Turning a hook back on starts its failure count afresh. */
export const updateWebhook = async (db: D1Database, id: number, changes: WebhookChanges, audit: AuditContext) => {
  const values = { url: changes.url, events: changes.events && JSON.stringify(changes.events), active: changes.active === undefined ? undefined : changes.active ? 1 : 0 };
  await db.batch([
    auditUpdated(db, audit, { ...AUDIT, id, values: changes }),
    db
      .prepare(
        `UPDATE webhooks SET url = coalesce(?2, url), events = coalesce(?3, events), active = coalesce(?4, active),
           consecutive_failures = CASE WHEN ?4 = 1 AND active = 0 THEN 0 ELSE consecutive_failures END WHERE id = ?1`,
      )
      .bind(id, values.url ?? null, values.events ?? null, values.active ?? null),
  ]);
  return findWebhook(db, id);
};

export const removeWebhook = async (db: D1Database, id: number, audit: AuditContext) => {
  const [, removed] = await db.batch([auditDeleted(db, audit, { ...AUDIT, id }), db.prepare('DELETE FROM webhooks WHERE id = ?1').bind(id)]);
  if (!removed?.meta.changes) throw new NotFound('Webhook not found');
};

interface DeliveryRow {
  id: string;
  event: WebhookDelivery['event'];
  at: string;
  attempt: number;
  status: WebhookDelivery['status'];
  response_status: number | null;
  response_ms: number | null;
  error: string | null;
}

const DELIVERY_COLUMNS = 'id, event, at, attempt, status, response_status, response_ms, error';

const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  event: row.event,
  at: row.at,
  attempt: row.attempt,
  status: row.status,
  responseStatus: row.response_status,
  responseMs: row.response_ms,
  error: row.error,
});

/** Deliveries per page when the caller names no size. */
const DELIVERY_PAGE_SIZE = 25;

export const listDeliveries = async (db: D1Database, webhookId: number, query: DeliveryListQuery) => {
  await findWebhook(db, webhookId);
  const spec = {
    select: `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d`,
    counted: 'webhook_deliveries d',
    orderBy: 'd.at DESC, d.id',
    where: 'WHERE d.webhook_id = ?1',
    params: [webhookId],
  };
  return (await readPage(db, spec, { page: query.page ?? 1, pageSize: query.pageSize ?? DELIVERY_PAGE_SIZE }, (rows: DeliveryRow[]) => rows.map(toDelivery))).page;
};

/** A `webhook-id`: the prefix Standard Webhooks' examples use, then 128 random bits. */
const NEW_ID = "'msg_' || lower(hex(randomblob(16)))";
const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/**
 * The outbox statement of one event, for the batch of the change that causes it: a delivery per
 * active hook subscribed to `event`, each with the body `{ type, timestamp, data }`. `dataSql` is
 * SQL giving the JSON of the record as the API answers it; it runs in the batch, after the change,
 * so it reads the record as committed. With no such hook it writes nothing.
 */
export const webhookOutbox = (db: D1Database, event: WebhookEvent, dataSql: string, dataParams: unknown[], audit: AuditContext) =>
  db
    .prepare(
      `INSERT INTO webhook_deliveries (id, webhook_id, event, payload, request_id)
       SELECT ${NEW_ID}, w.id, ?1, json_object('type', ?1, 'timestamp', ${NOW}, 'data', json_set(d.data, '$.actorId', ?2)), ?3
       FROM webhooks w, (SELECT (${dataSql}) AS data) d
       WHERE w.active = 1 AND d.data IS NOT NULL AND EXISTS (SELECT 1 FROM json_each(w.events) e WHERE e.value = ?1)`,
    )
    .bind(event, audit.actorId, audit.requestId, ...dataParams);

/** The deliveries a request's batch wrote, to put on the queue once it has committed. */
export const deliveriesOfRequest = async (db: D1Database, requestId: string) =>
  (await db.prepare("SELECT id FROM webhook_deliveries WHERE request_id = ?1 AND status = 'queued'").bind(requestId).all<{ id: string }>()).results.map((row) => row.id);

/**
 * The deliveries of a hook still waiting to be sent: those a hook turned off left unsent go on the
 * queue again when it is turned back on, so an outage of the receiver loses nothing.
 */
export const waitingDeliveries = async (db: D1Database, webhookId: number) =>
  (await db.prepare("SELECT id FROM webhook_deliveries WHERE webhook_id = ?1 AND status = 'queued' ORDER BY at").bind(webhookId).all<{ id: string }>()).results.map((row) => row.id);

/** A `webhook.test` delivery to one hook, active or not. */
export const testDelivery = async (db: D1Database, webhookId: number, actorId: number) => {
  const row = await db
    .prepare(
      `INSERT INTO webhook_deliveries (id, webhook_id, event, payload)
       SELECT ${NEW_ID}, id, 'webhook.test', json_object('type', 'webhook.test', 'timestamp', ${NOW}, 'data', json_object('webhookId', id, 'actorId', ?2))
       FROM webhooks WHERE id = ?1 RETURNING ${DELIVERY_COLUMNS}`,
    )
    .bind(webhookId, actorId)
    .first<DeliveryRow>();
  if (!row) throw new NotFound('Webhook not found');
  return toDelivery(row);
};

/** Puts a delivery back in the queue from its first attempt (a failed one, or to send again). */
export const requeueDelivery = async (db: D1Database, webhookId: number, deliveryId: string) => {
  const row = await db
    .prepare(`UPDATE webhook_deliveries SET status = 'queued', attempt = 0, next_at = NULL WHERE id = ?1 AND webhook_id = ?2 AND status = 'failed' RETURNING ${DELIVERY_COLUMNS}`)
    .bind(deliveryId, webhookId)
    .first<DeliveryRow>();
  if (!row) throw new NotFound('No failed delivery with that id');
  return toDelivery(row);
};

export interface PendingDelivery {
  id: string;
  webhookId: number;
  url: string;
  secret: string;
  payload: string;
  attempt: number;
}

/**
 * Claims a queued delivery for one attempt: counts the attempt and answers what to send, or null
 * when the delivery has already arrived, failed for good, or belongs to a hook that is off or gone.
 * A queue that hands the same message over twice therefore never sends a delivered one again.
 */
export const claimDelivery = async (db: D1Database, id: string) =>
  db
    .prepare(
      `UPDATE webhook_deliveries SET attempt = attempt + 1 WHERE id = ?1 AND status = 'queued'
         AND webhook_id IN (SELECT id FROM webhooks WHERE active = 1 OR webhook_deliveries.event = 'webhook.test')
       RETURNING id, webhook_id AS webhookId, (SELECT url FROM webhooks WHERE id = webhook_id) AS url,
         (SELECT secret FROM webhooks WHERE id = webhook_id) AS secret, payload, attempt`,
    )
    .bind(id)
    .first<PendingDelivery>();

export interface Outcome {
  status: number | null;
  ms: number | null;
  error: string | null;
}

export const markDelivered = (db: D1Database, delivery: PendingDelivery, outcome: Outcome) =>
  db.batch([
    db
      .prepare("UPDATE webhook_deliveries SET status = 'delivered', response_status = ?2, response_ms = ?3, error = NULL, next_at = NULL WHERE id = ?1")
      .bind(delivery.id, outcome.status, outcome.ms),
    db.prepare('UPDATE webhooks SET consecutive_failures = 0 WHERE id = ?1').bind(delivery.webhookId),
  ]);

/**
 * Records a failed attempt: `retryInSeconds` keeps it queued for the next, null fails it for good,
 * and then the hook's failures in a row go up; at WEBHOOK_FAILURE_LIMIT it is turned off and every active
 * admin gets a `webhook_disabled` notification, in the same batch. Answers whether it was turned off.
 */
export const markFailed = async (db: D1Database, delivery: PendingDelivery, outcome: Outcome, retryInSeconds: number | null) => {
  const [, , disabled] = await db.batch([
    db
      .prepare(
        `UPDATE webhook_deliveries SET status = ?2, response_status = ?3, response_ms = ?4, error = ?5,
           next_at = CASE WHEN ?6 IS NULL THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+' || ?6 || ' seconds') END WHERE id = ?1`,
      )
      .bind(delivery.id, retryInSeconds === null ? 'failed' : 'queued', outcome.status, outcome.ms, outcome.error?.slice(0, 500) ?? null, retryInSeconds),
    // A failure here is a delivery that failed for good, after every retry: a receiver down for an
    // hour (a burst of events failing their first attempts) turns nothing off and loses nothing.
    db.prepare('UPDATE webhooks SET consecutive_failures = consecutive_failures + 1 WHERE id = ?1 AND ?2 IS NULL').bind(delivery.webhookId, retryInSeconds),
    db.prepare('UPDATE webhooks SET active = 0 WHERE id = ?1 AND active = 1 AND consecutive_failures >= ?2').bind(delivery.webhookId, WEBHOOK_FAILURE_LIMIT),
    db
      .prepare(
        `INSERT INTO notifications (user_id, kind, entity, entity_id, title)
         SELECT u.id, 'webhook_disabled', 'webhook', w.id, 'Webhook turned off after ' || w.consecutive_failures || ' failed deliveries: ' || w.url
         FROM webhooks w, users u WHERE w.id = ?1 AND w.active = 0 AND changes() > 0 AND u.role = 'admin' AND u.is_active = 1`,
      )
      .bind(delivery.webhookId),
  ]);
  return (disabled?.meta.changes ?? 0) > 0;
};
