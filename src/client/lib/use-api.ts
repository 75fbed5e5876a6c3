import { useLayoutEffect, useRef } from 'react';
import useSWR, { mutate, preload, unstable_serialize, useSWRConfig, type Cache } from 'swr';
import type { ApiContract, ResponseOf } from '../../shared/api-contract';
import { apiRequest } from './api';
import { apiPath, type ArgsOf } from './endpoints';

const fetchPath = <T>(path: string) => apiRequest<T>(path);

// Long enough for a page's code to arrive on a slow connection; short enough that nobody is shown
// figures older than the page they opened.
const PRELOAD_FRESH_MS = 10_000;
const preloaded = new Map<string, Promise<unknown>>();

/**
 * Starts the request `useApi(path)` will make, through SWR's `preload`: the first hook to ask for
 * `path` takes this request instead of sending its own. A request no hook took within 10 s is
 * dropped (SWR's `mutate(key)` discards a preload), so it is a head start, never a cache.
 */
export const preloadApi = (path: string) => {
  // One started earlier and never taken may be stale, or sent with a token since replaced.
  if (preloaded.has(path)) void mutate(path);
  const request = preload(path, fetchPath);
  // Whoever takes it sees a failure; until then it must not count as unhandled.
  request.catch(() => undefined);
  preloaded.set(path, request);
  setTimeout(() => {
    if (preloaded.get(path) !== request) return;
    preloaded.delete(path);
    void mutate(path);
  }, PRELOAD_FRESH_MS);
};

// How many mounted hooks read each key, per cache.
const readers = new WeakMap<Cache, Map<string, number>>();
const readersOf = (cache: Cache) => {
  const counts = readers.get(cache) ?? new Map<string, number>();
  readers.set(cache, counts);
  return counts;
};

type Read = Extract<keyof ApiContract, `GET ${string}`>;

/** How a hook reads, given beside the call's own arguments. */
interface ReadOptions {
  /**
   * For a box read as it is typed: a newer value aborts the request still running for an older
   * one, so a slow answer can never arrive after, and replace, a newer one; and the last answer
   * stays while the next is on its way, instead of an empty flash per keystroke.
   */
  asYouType?: boolean;
}

/**
 * Reads one API call through SWR, typed by the shared contract; `null` arguments wait (no
 * request). It is keyed by the call's path itself, so a `preloadApi(path)` is picked up.
 * What SWR holds is kept for no one (docs/architecture.md#reading-data-in-the-client): an entry no mounted hook reads is dropped, when its last reader
 * unmounts and again when a new first reader arrives (an answer that landed after everyone left
 * must not be shown as if it were current). Hooks mounted together share one entry, as SWR does.
 */
export const useApi = <K extends Read>(call: K, ...args: ArgsOf<K, ReadOptions, null>) => {
  const { cache } = useSWRConfig();
  const asYouType = (args[0] as ReadOptions | null | undefined)?.asYouType ?? false;
  const running = useRef<AbortController | null>(null);
  // TypeScript does not narrow a generic tuple by its element: past the null check these are a call's arguments.
  const path = args[0] === null ? null : apiPath(call, ...(args as ArgsOf<K>));
  const key = unstable_serialize(path);
  if (key && !readersOf(cache).get(key)) cache.delete(key);

  // A layout effect, declared before useSWR's own: the reader counts before SWR writes anything.
  useLayoutEffect(() => {
    if (!key) return undefined;
    const counts = readersOf(cache);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    return () => {
      const left = (counts.get(key) ?? 1) - 1;
      if (left > 0) counts.set(key, left);
      else {
        counts.delete(key);
        cache.delete(key);
      }
    };
  }, [cache, key]);

  const fetchLatest = (latest: string) => {
    running.current?.abort();
    running.current = new AbortController();
    return apiRequest<ResponseOf<K>>(latest, { signal: running.current.signal });
  };
  return useSWR<ResponseOf<K>, Error>(path, asYouType ? fetchLatest : fetchPath<ResponseOf<K>>, { keepPreviousData: asYouType });
};
