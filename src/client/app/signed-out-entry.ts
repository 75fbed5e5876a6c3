import { authState } from '../lib/auth-store';
import { loginAddress } from '../lib/login-address';
import { routesFor } from './routes';
import { PAGES } from '../lib/pages';

/**
 * Runs before the router exists. A signed-out visit to a signed-in page (`/` included, which
 * leads to the dashboard) starts at the sign-in page instead: the router would otherwise fetch the
 * shell and the page's code before its guard could send the person away. The in-app guard
 * (AuthenticatedLayout) still covers a sign-out that happens while the app is open.
 */
if (!authState.token) {
  const { pathname, search, hash } = window.location;
  const wanted = pathname === '/' ? PAGES.dashboard : `${pathname}${search}${hash}`;
  if (routesFor(wanted).some((route) => !route.public)) window.history.replaceState(window.history.state, '', loginAddress(wanted));
}
