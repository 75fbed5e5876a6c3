import { array, boolean, number, object, string, type InferType } from 'yup';
import { line } from './fields';

/** What a webhook may subscribe to (docs/api.md#webhook-events); `webhook.test` is sent only on request. */
export const WEBHOOK_EVENTS = [
  'ticket.created',
  'ticket.updated',
  'ticket.comment_added',
  'statement.issued',
  'statement.paid',
  'statement.voided',
  'invoice_line.created',
  'import.completed',
  'user.deactivated',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Failed deliveries in a row after which the provider turns a hook off and tells the admins. */
export const WEBHOOK_FAILURE_LIMIT = 20;

export const WEBHOOK_URL_MAX = 2_000;

// Only the shape is checked here: whether plain http or a loopback address is allowed depends on
// WEBHOOK_ALLOW_LOOPBACK, which only the provider knows (docs/operations.md).
const url = () =>
  line(WEBHOOK_URL_MAX).test('url', 'Must be an https:// address', (value) => {
    if (value == null || value === '') return true;
    try {
      const parsed = new URL(value);
      return (parsed.protocol === 'https:' || parsed.protocol === 'http:') && parsed.hostname !== '';
    } catch {
      return false;
    }
  });

const events = () =>
  array(string().oneOf(WEBHOOK_EVENTS, 'Not a webhook event').required())
    .min(1, 'Pick at least one event')
    .test('unique', 'Each event once', (value) => value == null || new Set(value).size === value.length);

/** `POST webhooks`. */
export const createWebhookSchema = object({
  url: url().required('The address is required'),
  events: events().required('Pick at least one event'),
  active: boolean().default(true),
});
/** `PATCH webhooks/{id}`: only what changes. */
export const updateWebhookSchema = object({ url: url(), events: events(), active: boolean() });
export type WebhookPayload = InferType<typeof createWebhookSchema>;
export type WebhookChanges = InferType<typeof updateWebhookSchema>;

/** `GET webhooks/{id}/deliveries`. */
export const deliveryListQuerySchema = object({ page: number().integer().min(1), pageSize: number().integer().min(1).max(100) });
export type DeliveryListQuery = InferType<typeof deliveryListQuerySchema>;

export interface Webhook {
  id: number;
  url: string;
  events: WebhookEvent[];
  active: boolean;
  createdAt: string;
  /** Failed deliveries since the last one that arrived; at WEBHOOK_FAILURE_LIMIT the hook is turned off. */
  consecutiveFailures: number;
}

/** `POST webhooks`' answer: the only time the signing secret (`whsec_…`) is shown. */
export interface CreatedWebhook extends Webhook {
  secret: string;
}

export const DELIVERY_STATUSES = ['queued', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One send (and its retries) of one event to one hook. */
export interface WebhookDelivery {
  /** The `webhook-id` header the receiver saw. */
  id: string;
  event: WebhookEvent | 'webhook.test';
  at: string;
  attempt: number;
  status: DeliveryStatus;
  responseStatus: number | null;
  responseMs: number | null;
  error: string | null;
}
