import useSWR from 'swr';
import type { Page } from '../../../shared/types';
import type { CreatedWebhook, Webhook, WebhookChanges, WebhookDelivery, WebhookPayload } from '../../../shared/schemas/webhooks';
import { apiRequest } from '../../lib/api';
import { withQuery } from '../../lib/endpoints';

/** Rows of the delivery log per page. */
export const DELIVERY_PAGE_SIZE = 20;

/** The hooks list may come whole (`{ items }`) or as a page; the page shows every hook either way. */
type HookList = { items: Webhook[] };

const read = <T>(path: string) => apiRequest<T>(path);

/** Every webhook (admins). */
export const useWebhooks = () => useSWR<HookList, Error>('webhooks', read<HookList>);

// How often an open log is read again while a delivery in it is still on its way.
const QUEUED_REFRESH_MS = 5_000;

/** One page of a hook's deliveries, newest first; read again every few seconds while one is queued. */
export const useDeliveries = (id: number | undefined, page: number) =>
  useSWR<Page<WebhookDelivery>, Error>(id ? withQuery(`webhooks/${id}/deliveries`, { page, pageSize: DELIVERY_PAGE_SIZE }) : null, read<Page<WebhookDelivery>>, {
    refreshInterval: (latest) => (latest?.items.some((delivery) => delivery.status === 'queued') ? QUEUED_REFRESH_MS : 0),
  });

export const webhookApi = {
  create: (body: WebhookPayload) => apiRequest<CreatedWebhook>('webhooks', { method: 'POST', body }),
  update: (id: number, body: WebhookChanges) => apiRequest<Webhook>(`webhooks/${id}`, { method: 'PATCH', body }),
  remove: (id: number) => apiRequest<null>(`webhooks/${id}`, { method: 'DELETE' }),
  retry: (id: number, deliveryId: string) => apiRequest<WebhookDelivery>(`webhooks/${id}/deliveries/${encodeURIComponent(deliveryId)}/retry`, { method: 'POST' }),
  test: (id: number) => apiRequest<WebhookDelivery>(`webhooks/${id}/test`, { method: 'POST' }),
};
