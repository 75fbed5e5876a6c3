import { number, object, type InferType } from 'yup';
import { line } from './fields';

export const SEARCH_RESULT_TYPES = ['ticket', 'user', 'company', 'ticket_category', 'statement', 'invoice_line'] as const;
export type SearchResultType = (typeof SEARCH_RESULT_TYPES)[number];

export const SEARCH_DEFAULT_LIMIT = 10;
export const SEARCH_MAX_LIMIT = 50;

/** `GET search?q&limit` (docs/architecture.md#search-and-list-views). */
export const searchQuerySchema = object({
  q: line(200).default(''),
  limit: number()
    .typeError('Must be a number')
    .integer('Must be a whole number')
    .min(1, 'Must be at least 1')
    .max(SEARCH_MAX_LIMIT, `Must be at most ${SEARCH_MAX_LIMIT}`)
    .default(SEARCH_DEFAULT_LIMIT),
});
export type SearchQuery = InferType<typeof searchQuerySchema>;

