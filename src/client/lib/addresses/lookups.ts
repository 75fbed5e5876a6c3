import { withQuery } from '../endpoints';
import { PAGES } from '../pages';
import { optionalId, optionalPage, optionalText, useListParams } from '../url-state';

/** `/lookups/companies/`, `/lookups/ticket-categories/`, `/lookups/calendars/` and `/lookups/sla-policies/`: `id` opens a record; `q` and `page` are the list's view. */
export const parseLookupParams = (params: URLSearchParams) => ({
  id: optionalId(params.get('id')),
  q: optionalText(params.get('q'))?.slice(0, 200),
  page: optionalPage(params.get('page')),
});

export const useLookupParams = () => useListParams(parseLookupParams);

/** One company or ticket category open in its page's drawer, in the name parseLookupParams reads. */
export const lookupLinks = {
  company: (id: number) => withQuery(`${PAGES.companies}/`, { id }),
  ticketCategory: (id: number) => withQuery(`${PAGES.ticketCategories}/`, { id }),
  calendar: (id: number) => withQuery(`${PAGES.calendars}/`, { id }),
  slaPolicy: (id: number) => withQuery(`${PAGES.slaPolicies}/`, { id }),
};
