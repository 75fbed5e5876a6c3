import { useEffect, useId } from 'react';
import useSWR, { unstable_serialize, useSWRConfig } from 'swr';
import type { ApiContract, ResponseOf } from '../../shared/api-contract';
import { apiRequest } from './api';
import { pathOf, type ArgsOf } from './endpoints';
import { takePrefetched } from './prefetch';

type Read = Extract<keyof ApiContract, `GET ${string}`>;

/**
 * Reads one API call through SWR, typed by the shared contract; `null` arguments wait (no
 * request). The key carries this mount's id, so no two mounts ever share cached data (SPEC.md §9:
 * cache time 0), and the entry is dropped when the mount goes. The first read may take an answer
 * the route asked for while the page's code loaded (see prefetch.ts).
 */
export const useApi = <K extends Read>(key: K, ...[args]: ArgsOf<K, unknown, null>) => {
  const mountId = useId();
  const { cache } = useSWRConfig();
  const path = args === null ? null : pathOf(key, args);
  const swrKey = path === null ? null : [path, mountId];
  const serialized = unstable_serialize(swrKey);

  useEffect(() => () => cache.delete(serialized), [cache, serialized]);

  return useSWR<ResponseOf<K>, Error>(swrKey, ([target]: [string]) => takePrefetched<ResponseOf<K>>(target) ?? apiRequest<ResponseOf<K>>(target));
};
