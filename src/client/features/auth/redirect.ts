import { PAGES } from '../../lib/pages';
const DEFAULT_AFTER_LOGIN = PAGES.dashboard;

/** Only same-app paths are followed, so a crafted link cannot send a fresh sign-in elsewhere. */
export const safeRedirect = (wanted: string | null) =>
  wanted && wanted.startsWith('/') && !wanted.startsWith('//') && !wanted.startsWith('/\\') ? wanted : DEFAULT_AFTER_LOGIN;
