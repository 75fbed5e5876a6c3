import { Navigate, createBrowserRouter, type RouteObject } from 'react-router-dom';
import { ErrorScreen } from './ErrorScreen';
import { PublicLayout } from './layouts/PublicLayout';
import { NotFound } from './NotFound';
import { PageLoader } from './PageLoader';
import { RootLayout } from './RootLayout';
import { pages } from './routes';

// Pages render their errors inside the shell, so navigation stays usable after a crash.
const guardedPages: RouteObject[] = [
  { path: 'dashboard', lazy: pages['/dashboard'] },
  { path: 'users', lazy: pages['/users'] },
  { path: 'tickets', lazy: pages['/tickets'] },
  { path: 'lookups/ticket-categories', lazy: pages['/lookups/ticket-categories'] },
  { path: 'lookups/companies', lazy: pages['/lookups/companies'] },
  { path: 'invoices/autofi', lazy: pages['/invoices/autofi'] },
  { path: 'invoices/3dtracking', lazy: pages['/invoices/3dtracking'] },
  {
    path: 'invoices/gifs',
    lazy: pages['/invoices/gifs'],
    children: [
      { index: true, lazy: pages['/invoices/gifs/index'] },
      { path: 'statement', lazy: pages['/invoices/gifs/statement'] },
      { path: 'sla', lazy: pages['/invoices/gifs/sla'] },
      { path: 'azure', lazy: pages['/invoices/gifs/azure'] },
    ],
  },
  { path: 'reports/timesheet', lazy: pages['/reports/timesheet'] },
  { path: 'reports/ticket-report', lazy: pages['/reports/ticket-report'] },
];

export const routes: RouteObject[] = [
  {
    id: 'root',
    element: <RootLayout />,
    errorElement: <ErrorScreen />,
    hydrateFallbackElement: <PageLoader />,
    children: [
      { index: true, element: <Navigate to="/dashboard" replace /> },
      { id: '_public', element: <PublicLayout />, children: [{ path: 'login', lazy: pages['/login'] }] },
      {
        id: '_authenticated',
        lazy: pages.authenticatedLayout,
        children: [{ errorElement: <ErrorScreen />, children: guardedPages }],
      },
      { path: '*', element: <NotFound /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
