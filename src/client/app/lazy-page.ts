import type { ComponentType } from 'react';

export const RELOAD_FLAG = 'staff-app-chunk-reload';

type PageModule = Record<string, unknown>;

/**
 * Loads a page's code. A chunk that fails to load usually means a new deploy replaced it, so the
 * page reloads once to fetch the new build; the session-storage flag stops a reload loop, and a
 * second failure reaches the error screen.
 */
export const loadPage = async <M extends PageModule>(load: () => Promise<M>): Promise<M> => {
  try {
    const module = await load();
    sessionStorage.removeItem(RELOAD_FLAG);
    return module;
  } catch (error) {
    if (!sessionStorage.getItem(RELOAD_FLAG)) {
      sessionStorage.setItem(RELOAD_FLAG, '1');
      window.location.reload();
      return new Promise<never>(() => {});
    }
    sessionStorage.removeItem(RELOAD_FLAG);
    throw error;
  }
};

/** A route's `lazy` that takes the named component from the page module. */
export const lazyPage =
  <M extends PageModule>(load: () => Promise<M>, name: keyof M & string) =>
  async () => ({ Component: (await loadPage(load))[name] as ComponentType });
