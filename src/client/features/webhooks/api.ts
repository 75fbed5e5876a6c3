import { useEffect } from 'react';
import type { WebhookChanges, WebhookPayload } from '../../../shared/schemas/webhooks';
import { callApi } from '../../lib/endpoints';
import { useApi } from '../../lib/use-api';

/** Rows of the delivery log per page. */
export const DELIVERY_PAGE_SIZE = 20;

// How often an open log is read again while a delivery in it is still on its way.
const QUEUED_REFRESH_MS = 5_000;

/** Every webhook (admins). */
export const useWebhooks = () => useApi('GET /webhooks');

/** One page of a hook's deliveries, newest first; read again every few seconds while one is queued. */
export const useDeliveries = (id: number | undefined, page: number) => {
  const log = useApi('GET /webhooks/:id/deliveries', id ? { params: { id }, query: { page, pageSize: DELIVERY_PAGE_SIZE } } : null);
  const queued = log.data?.items.some((delivery) => delivery.status === 'queued') ?? false;
  const { mutate } = log;
  useEffect(() => {
    if (!queued) return undefined;
    const timer = setInterval(() => void mutate(), QUEUED_REFRESH_MS);
    return () => clearInterval(timer);
  }, [queued, mutate]);
  return log;
};

export const webhookApi = {
  create: (body: WebhookPayload) => callApi('POST /webhooks', { body }),
  update: (id: number, body: WebhookChanges) => callApi('PATCH /webhooks/:id', { params: { id }, body }),
  remove: (id: number) => callApi('DELETE /webhooks/:id', { params: { id } }),
  retry: (id: number, deliveryId: string) => callApi('POST /webhooks/:id/deliveries/:deliveryId/retry', { params: { id, deliveryId } }),
  test: (id: number) => callApi('POST /webhooks/:id/test', { params: { id } }),
};
