import { useId, useRef } from 'react';
import useSWR from 'swr';
import type { ResponseOf } from '../../../shared/api-contract';
import { apiPath, callApi } from '../../lib/endpoints';

export const PALETTE_LIMIT = 10;

/**
 * `GET search` for what the palette's box holds. A newer query aborts the call still running for
 * an older one, so a slow answer can never arrive after, and replace, a newer one. The key carries
 * this mount's id, so no query's results are shared or kept between palettes (docs/architecture.md#reading-data-in-the-client).
 */
export const useSearchResults = (query: string) => {
  const mountId = useId();
  const running = useRef<AbortController | null>(null);
  const q = query.trim();
  return useSWR<ResponseOf<'GET /search'>, Error>(
    q ? [apiPath('GET /search', { query: { q, limit: PALETTE_LIMIT } }), mountId] : null,
    () => {
      running.current?.abort();
      const controller = new AbortController();
      running.current = controller;
      return callApi('GET /search', { query: { q, limit: PALETTE_LIMIT }, signal: controller.signal });
    },
    // While the next answer is on its way the last one stays, instead of an empty flash per key.
    { keepPreviousData: true },
  );
};
