import { createContext, useContext } from 'react';

export interface RoutePreloadOptions {
  /** Also ask for the data the pages read first: only when the visit is about to happen. */
  data?: boolean;
  /** Also fetch the signed-in shell's code (for the way in from the login page). */
  withShell?: boolean;
}

/** Gets the code (and with `data`, the first data) of the pages at an address ready. */
export type RoutePreloader = (to: string, options?: RoutePreloadOptions) => void;

/**
 * The app's route preloader, for pages that send the user on (the login page). The route table
 * lives in app/, above the features, so the app hands its preloader down rather than a page
 * reaching up for it.
 */
export const RoutePreloadContext = createContext<RoutePreloader>(() => undefined);

export const useRoutePreload = () => useContext(RoutePreloadContext);
