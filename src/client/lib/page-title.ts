import { useEffect } from 'react';

export const APP_NAME = 'Staff App';

/** The document title for a page: "<Page> · Staff App". */
export const documentTitle = (page: string) => `${page} · ${APP_NAME}`;

/**
 * Names the page in the browser's tab and history. The shell's route announcer reads it after a
 * navigation, so every page that shows an h1 calls this with the h1's text.
 */
export const usePageTitle = (page: string) => {
  useEffect(() => {
    document.title = documentTitle(page);
  }, [page]);
};
