import { parseIdSearch, useTypedSearch } from '../../lib/search';

/** `/lookups/companies/` and `/lookups/ticket-categories/`: `id` opens a record. */
export const useLookupSearch = () => useTypedSearch(parseIdSearch);
