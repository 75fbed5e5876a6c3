import { authState } from '../lib/auth-store';
import type { RoutePreloadOptions } from '../lib/route-preload';
import { preloadApi } from '../lib/use-api';
import { SHELL, routesFor } from './routes';

const codeRequested = new Set<string>();

/**
 * The one way anything is fetched ahead of a visit, driven by the route table. The pages' code
 * (and the shell's, with `withShell`) is fetched once per address; a failure is logged and
 * forgotten so a later preload or the visit itself tries again. With `data`, and only for a
 * signed-in user (anything else would answer 401), each page's first reads start through SWR's
 * `preload`, under the very keys the pages' hooks use, so the hooks take these requests.
 */
export const preloadRoute = (to: string, { data = false, withShell = false }: RoutePreloadOptions = {}) => {
  const routes = routesFor(to);
  const codeKey = withShell ? `shell:${to}` : to;
  if (!codeRequested.has(codeKey)) {
    codeRequested.add(codeKey);
    const pages = withShell ? [SHELL, ...routes.map((route) => route.page)] : routes.map((route) => route.page);
    Promise.all(pages.map((code) => code.load())).catch((error: unknown) => {
      codeRequested.delete(codeKey);
      console.error('Error preloading route!', error);
    });
  }
  if (data && authState.token) for (const key of routes.flatMap((route) => route.data ?? [])) preloadApi(key());
};
