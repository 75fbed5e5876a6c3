import { createElement, type ComponentType } from 'react';

export const RELOAD_FLAG = 'staff-app-chunk-reload';

type PageModule = Record<string, unknown>;

/**
 * Loads a page's code. A chunk that fails to load usually means a new deploy replaced it, so the
 * page reloads once to fetch the new build. The session-storage flag names the page that caused
 * the reload: a second failure of that page reaches the error screen instead of reloading again,
 * and only that page loading fine clears it (another chunk loading fine must not, or a chunk that
 * stays broken would reload forever).
 */
export const loadPage = async <M extends PageModule>(load: () => Promise<M>, name: string): Promise<M> => {
  try {
    const module = await load();
    if (sessionStorage.getItem(RELOAD_FLAG) === name) sessionStorage.removeItem(RELOAD_FLAG);
    return module;
  } catch (error) {
    if (sessionStorage.getItem(RELOAD_FLAG) !== name) {
      sessionStorage.setItem(RELOAD_FLAG, name);
      window.location.reload();
      return new Promise<never>(() => {});
    }
    sessionStorage.removeItem(RELOAD_FLAG);
    throw error;
  }
};

/** A route's `lazy` that takes the named component from the page module, with `props` when given. */
export const lazyPage =
  <M extends PageModule>(load: () => Promise<M>, name: keyof M & string, props?: object) =>
  async () => {
    const Page = (await loadPage(load, name))[name] as ComponentType<object>;
    return { Component: props ? () => createElement(Page, props) : (Page as ComponentType) };
  };
