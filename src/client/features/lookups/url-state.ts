import { optionalId, optionalPage, optionalText, useListParams } from '../../lib/url-state';

/** `/lookups/companies/` and `/lookups/ticket-categories/`: `id` opens a record; `q` and `page` are the list's view. */
export const parseLookupParams = (params: URLSearchParams) => ({
  id: optionalId(params.get('id')),
  q: optionalText(params.get('q'))?.slice(0, 200),
  page: optionalPage(params.get('page')),
});

export const useLookupParams = () => useListParams(parseLookupParams);
