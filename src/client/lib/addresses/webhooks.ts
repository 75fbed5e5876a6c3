import { withQuery } from '../endpoints';
import { PAGES } from '../pages';
import { optionalId, optionalPage, useUrlState } from '../url-state';

/** `/webhooks/`: `id` opens a hook with its delivery log; `page` is that log's page. */
export const parseWebhookParams = (params: URLSearchParams) => ({
  id: optionalId(params.get('id')),
  page: optionalPage(params.get('page')),
});

export const useWebhookParams = () => useUrlState(parseWebhookParams);

/** One hook open in the webhooks page's drawer, in the name parseWebhookParams reads. */
export const webhookLink = (id: number) => withQuery(`${PAGES.webhooks}/`, { id });
