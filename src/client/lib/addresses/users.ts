import { USER_STATUSES } from '../../../shared/schemas/users';
import { withQuery } from '../endpoints';
import { PAGES } from '../pages';
import { optionalId, optionalOneOf, optionalPage, optionalText, useListParams } from '../url-state';

/**
 * `/users/`: `id` opens a user, `component` picks the panel (details, edit, create); `q`,
 * `status` and `page` are the list's view (docs/architecture.md#search-and-list-views).
 */
export const parseUsersParams = (params: URLSearchParams) => ({
  id: optionalId(params.get('id')),
  component: optionalText(params.get('component')),
  q: optionalText(params.get('q'))?.slice(0, 200),
  status: optionalOneOf(USER_STATUSES, params.get('status')),
  page: optionalPage(params.get('page')),
});

export const useUsersParams = () => useListParams(parseUsersParams);

/** One person open in the users page's drawer, in the name parseUsersParams reads. */
export const userLink = (id: number) => withQuery(`${PAGES.users}/`, { id });
