import { authState } from '../lib/auth-store';
import { prefetchApi } from '../lib/prefetch';
import { dataFor, loadersFor, pages } from './routes';

const preloaded = new Set<string>();

/**
 * Fetches the code a visit to `to` will need, once per address; a failure is logged and
 * forgotten so a later preload or the visit itself tries again. With `withShell`, the signed-in
 * shell's code comes too (for the way in from the login page).
 */
export const preloadRoute = (to: string, { withShell = false } = {}) => {
  const key = withShell ? `shell:${to}` : to;
  if (preloaded.has(key)) return;
  preloaded.add(key);
  const loaders = withShell ? [pages.authenticatedLayout.load, ...loadersFor(to)] : loadersFor(to);
  Promise.all(loaders.map((load) => load())).catch((error: unknown) => {
    preloaded.delete(key);
    console.error('Error preloading route!', error);
  });
};

/**
 * Asks for the data the pages at `to` read first, so it arrives while their code loads rather
 * than after it. Only for a signed-in user: everything else would answer 401.
 */
export const prefetchRouteData = (to: string) => {
  if (!authState.token) return;
  for (const path of dataFor(to)) prefetchApi(path);
};
