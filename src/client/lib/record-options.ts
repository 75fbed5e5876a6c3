import { useDebouncedValue } from '@mantine/hooks';
import { useMemo } from 'react';
import { MAX_PAGE_SIZE } from '../../shared/constants';
import type { Calendar } from '../../shared/sla';
import type { Company, TicketCategory, User } from '../../shared/types';
import { fullName } from './format';
import type { Option } from './form/fields';
import { useApi } from './use-api';

/** The records a select can pick from: each has a list call that takes `q` and a call for one. */
const SOURCES = {
  companies: { list: 'GET /companies', one: 'GET /companies/:id' },
  'ticket-categories': { list: 'GET /ticket-categories', one: 'GET /ticket-categories/:id' },
  users: { list: 'GET /users', one: 'GET /users/:id' },
  calendars: { list: 'GET /calendars', one: 'GET /calendars/:id' },
} as const;
export type RecordKind = keyof typeof SOURCES;

// Long enough that typing a name asks once, short enough that the matches seem to follow the typing.
const SEARCH_DEBOUNCE_MS = 250;

export interface RecordOption extends Option {
  active: boolean;
}

// A calendar has no active flag: it is always offered.
const optionOf = (record: Company | TicketCategory | User | Calendar): RecordOption => ({
  value: String(record.id),
  label: 'name' in record ? record.name : fullName(record),
  active: 'isActive' in record ? record.isActive : true,
});

/**
 * A kind of record as select options, any of them within reach: the first page (as many as one
 * call answers), then, while `search` holds text and there are more records than that page, the
 * API's matches for it (asked once the typing pauses); and the `chosen` record itself when it is
 * not on the first page, so its label shows.
 */
export const useRecordOptions = (kind: RecordKind, { search = '', chosen = null }: { search?: string; chosen?: number | null } = {}) => {
  const { list, one } = SOURCES[kind];
  const first = useApi(list, { query: { pageSize: MAX_PAGE_SIZE } });
  const partial = first.data !== undefined && first.data.items.length < first.data.total;
  const [typed] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const q = typed.trim();
  const onFirstPage = first.data?.items.find((record) => record.id === chosen);
  const wanted = useApi(one, partial && chosen !== null && !onFirstPage ? { params: { id: chosen } } : null);
  const chosenRecord = onFirstPage ?? wanted.data;
  // Once a record is picked the select shows its label: that is no new search.
  const searching = partial && q !== '' && (chosenRecord === undefined || q !== optionOf(chosenRecord).label);
  const found = useApi(list, searching ? { query: { q, pageSize: MAX_PAGE_SIZE } } : null);

  return useMemo(() => {
    const options = new Map<string, RecordOption>();
    for (const record of [...(first.data?.items ?? []), ...(found.data?.items ?? []), ...(wanted.data ? [wanted.data] : [])]) {
      const option = optionOf(record);
      if (!options.has(option.value)) options.set(option.value, option);
    }
    return [...options.values()];
  }, [first.data, found.data, wanted.data]);
};

/**
 * The active records only; one since deactivated that a form already holds (`kept`) stays,
 * marked, so the form shows the truth and saving leaves it in place.
 */
export const activeOptions = (options: RecordOption[], kept: number | null | undefined = null): Option[] =>
  options.flatMap(({ value, label, active }) => {
    if (active) return [{ value, label }];
    return value === String(kept) ? [{ value, label: `${label} (inactive)` }] : [];
  });
