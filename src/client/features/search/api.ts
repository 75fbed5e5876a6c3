import { useApi } from '../../lib/use-api';

export const PALETTE_LIMIT = 10;

/** `GET search` for what the palette's box holds, read as it is typed. */
export const useSearchResults = (query: string) => {
  const q = query.trim();
  return useApi('GET /search', q ? { query: { q, limit: PALETTE_LIMIT }, asYouType: true } : null);
};
