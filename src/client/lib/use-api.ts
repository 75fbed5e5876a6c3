import { useEffect, useId } from 'react';
import useSWR, { unstable_serialize, useSWRConfig } from 'swr';
import { apiRequest } from './api';
import { takePrefetched } from './prefetch';

/**
 * Reads one API path through SWR. The key carries this mount's id, so no two mounts ever share
 * cached data (SPEC.md §9: cache time 0), and the entry is dropped when the mount goes. The first
 * read may take an answer the route asked for while the page's code loaded (see prefetch.ts).
 */
export const useApi = <T>(path: string | null) => {
  const mountId = useId();
  const { cache } = useSWRConfig();
  const key = path === null ? null : [path, mountId];
  const serialized = unstable_serialize(key);

  useEffect(() => () => cache.delete(serialized), [cache, serialized]);

  return useSWR<T, Error>(key, ([target]: [string]) => takePrefetched<T>(target) ?? apiRequest<T>(target));
};

/** `path?a=1&b=2`, leaving out empty values. */
export const withQuery = (path: string, query: Record<string, string | number | boolean | undefined | null>) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
};
