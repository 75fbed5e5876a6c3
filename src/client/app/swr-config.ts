import type { SWRConfiguration } from 'swr';

/**
 * docs/architecture.md#reading-data-in-the-client: nothing is cached or shared between mounts and nothing is retried. A fresh cache
 * Map per <SWRConfig> plus zero dedupe keeps every mount's data its own.
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
