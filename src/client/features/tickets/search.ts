import { parseIdSearch, useTypedSearch } from '../../lib/search';

/** `/tickets/`: `id` opens a ticket. */
export const useTicketsSearch = () => useTypedSearch(parseIdSearch);
