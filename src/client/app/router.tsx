import { Navigate, createBrowserRouter, type RouteObject } from 'react-router-dom';
import { ErrorScreen } from './ErrorScreen';
import { lazyPage } from './lazy-page';
import { NAV_ITEMS } from './layouts/nav-items';
import { PublicLayout } from './layouts/PublicLayout';
import { NotFound } from './NotFound';
import { PageLoader } from './PageLoader';
import { RootLayout } from './RootLayout';
import { ROUTES, SHELL, tabsOf, type TableRoute } from './routes';
import { PAGES } from '../lib/pages';

/** A table route as the router's, its path relative to `parent` (the index when it is the parent's own). */
const toRouteObject = (route: TableRoute, parent = ''): RouteObject => {
  const tabs = tabsOf(route);
  const props = tabs ? { ...route.page.props, tabs } : route.page.props;
  const lazy = lazyPage(route.page.load, route.page.name, props);
  if (route.path === parent) return { index: true, lazy };
  return {
    path: route.path.slice(parent.length + 1),
    lazy,
    children: (route.children as readonly TableRoute[] | undefined)?.map((child) => toRouteObject(child, route.path)),
  };
};

const publicPages = ROUTES.filter((route) => 'public' in route).map((route) => toRouteObject(route));
const guardedPages = ROUTES.filter((route) => !('public' in route)).map((route) => toRouteObject(route));

export const routes: RouteObject[] = [
  {
    id: 'root',
    element: <RootLayout />,
    errorElement: (
      <PublicLayout>
        <ErrorScreen />
      </PublicLayout>
    ),
    hydrateFallbackElement: <PageLoader />,
    children: [
      { index: true, element: <Navigate to={PAGES.dashboard} replace /> },
      { id: '_public', element: <PublicLayout />, children: publicPages },
      {
        id: '_authenticated',
        lazy: lazyPage(SHELL.load, SHELL.name, { nav: NAV_ITEMS }),
        // Pages render their errors inside the shell, so navigation stays usable after a crash.
        children: [{ errorElement: <ErrorScreen />, children: guardedPages }],
      },
      {
        path: '*',
        element: (
          <PublicLayout>
            <NotFound />
          </PublicLayout>
        ),
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
