import { apiRequest } from './api';

// Long enough for a page's code to arrive on a slow connection; short enough that nobody is shown
// figures older than the page they opened.
const FRESH_MS = 10_000;

const started = new Map<string, { at: number; response: Promise<unknown> }>();

/**
 * Asks for `path` while the page that shows it is still loading its code. The page's first read
 * of that path takes this answer instead of asking again. Taken once and only while fresh, it is
 * a head start, not a cache: every later read asks the server (SPEC.md §9, cache time 0).
 */
export const prefetchApi = (path: string) => {
  const response = apiRequest<unknown>(path);
  // The reader sees a failure; until one takes it, it must not count as unhandled.
  response.catch(() => undefined);
  started.set(path, { at: Date.now(), response });
};

/** The answer `prefetchApi(path)` started, once, if it is fresh. */
export const takePrefetched = <T>(path: string): Promise<T> | undefined => {
  const entry = started.get(path);
  started.delete(path);
  return entry && Date.now() - entry.at < FRESH_MS ? (entry.response as Promise<T>) : undefined;
};
