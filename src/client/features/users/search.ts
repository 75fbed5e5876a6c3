import { optionalId, optionalText, useTypedSearch } from '../../lib/search';

/** `/users/`: `id` opens a user, `component` picks the panel (details, edit, create). */
export const parseUsersSearch = (params: URLSearchParams) => ({
  id: optionalId(params.get('id')),
  component: optionalText(params.get('component')),
});

export const useUsersSearch = () => useTypedSearch(parseUsersSearch);
