import type { SWRConfiguration } from 'swr';

/**
 * docs/architecture.md#reading-data-in-the-client: nothing is retried, nothing revalidates behind
 * the person's back, and no request is skipped as a duplicate. What is kept, and for how long, is
 * one rule written in lib/use-api.ts: an entry lives while a mounted hook reads it.
 */
export const swrConfig: SWRConfiguration = {
  provider: () => new Map(),
  dedupingInterval: 0,
  focusThrottleInterval: 0,
  revalidateOnFocus: false,
  revalidateOnReconnect: false,
  revalidateIfStale: true,
  shouldRetryOnError: false,
  errorRetryCount: 0,
  keepPreviousData: false,
};
