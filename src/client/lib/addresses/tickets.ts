import { TICKET_PRIORITIES, TICKET_SORTS, TICKET_STATUSES } from '../../../shared/schemas/tickets';
import { SLA_FILTERS } from '../../../shared/sla';
import { withQuery } from '../endpoints';
import { PAGES } from '../pages';
import { optionalBoolean, optionalId, optionalOneOf, optionalPage, optionalText, useListParams } from '../url-state';

/** A yes-only filter: `?overdue=true` narrows the list; false or anything else is no filter. */
const onlyWhenTrue = (value: string | null) => (optionalBoolean(value) ? true : undefined);

const SORTS = TICKET_SORTS.flatMap((key) => [key, `-${key}`] as const);
export const ticketSort = (value: string | null) => optionalOneOf(SORTS, value);

/** `/tickets/`: `id` opens a ticket; the rest is the list's view (docs/architecture.md#search-and-list-views). */
export const parseTicketsParams = (params: URLSearchParams) => ({
  id: optionalId(params.get('id')),
  // The API refuses longer searches; a pasted link with one still shows the list.
  q: optionalText(params.get('q'))?.slice(0, 200),
  status: optionalOneOf(TICKET_STATUSES, params.get('status')),
  priority: optionalOneOf(TICKET_PRIORITIES, params.get('priority')),
  companyId: optionalId(params.get('companyId')),
  categoryId: optionalId(params.get('categoryId')),
  assigneeId: optionalId(params.get('assigneeId')),
  open: onlyWhenTrue(params.get('open')),
  overdue: onlyWhenTrue(params.get('overdue')),
  mine: onlyWhenTrue(params.get('mine')),
  sla: optionalOneOf(SLA_FILTERS, params.get('sla')),
  sort: ticketSort(params.get('sort')),
  page: optionalPage(params.get('page')),
});

export type TicketsView = ReturnType<typeof parseTicketsParams>;

export const useTicketsParams = () => useListParams(parseTicketsParams);

/**
 * A comment's place in its open ticket, `#comment-12`: a hash rather than a search value, as the
 * page's search values are the ones above (docs/architecture.md#search-and-list-views).
 */
export const commentAnchor = (commentId: number) => `comment-${commentId}`;

/** The comment a `#comment-12` hash points at. */
export const commentOfHash = (hash: string) => {
  const match = /^#comment-(\d{1,12})$/.exec(hash);
  return match ? Number(match[1]) : undefined;
};

/** The tickets page's addresses, in the names parseTicketsParams reads. */
export const ticketLinks = {
  /** The list as given (filters, sort, page). */
  list: (view: Partial<TicketsView>) => withQuery(`${PAGES.tickets}/`, view),
  /** One ticket open in the list's drawer; at one of its comments when given. */
  ticket: (id: number, commentId?: number | null) => `${withQuery(`${PAGES.tickets}/`, { id })}${commentId ? `#${commentAnchor(commentId)}` : ''}`,
};
