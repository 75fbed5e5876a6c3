import { Navigate, createBrowserRouter, type RouteObject } from 'react-router-dom';
import { ErrorScreen } from './ErrorScreen';
import { PublicLayout } from './layouts/PublicLayout';
import { NotFound } from './NotFound';
import { PageLoader } from './PageLoader';
import { RootLayout } from './RootLayout';
import { pages } from './routes';

// Pages render their errors inside the shell, so navigation stays usable after a crash.
const guardedPages: RouteObject[] = [
  { path: 'dashboard', lazy: pages['/dashboard'].lazy },
  { path: 'users', lazy: pages['/users'].lazy },
  { path: 'tickets', lazy: pages['/tickets'].lazy },
  { path: 'lookups/ticket-categories', lazy: pages['/lookups/ticket-categories'].lazy },
  { path: 'lookups/companies', lazy: pages['/lookups/companies'].lazy },
  { path: 'invoices/autofi', lazy: pages['/invoices/autofi'].lazy },
  { path: 'invoices/3dtracking', lazy: pages['/invoices/3dtracking'].lazy },
  {
    path: 'invoices/gifs',
    lazy: pages['/invoices/gifs'].lazy,
    children: [
      { index: true, lazy: pages['/invoices/gifs/index'].lazy },
      { path: 'statement', lazy: pages['/invoices/gifs/statement'].lazy },
      { path: 'sla', lazy: pages['/invoices/gifs/sla'].lazy },
      { path: 'azure', lazy: pages['/invoices/gifs/azure'].lazy },
    ],
  },
  { path: 'reports/timesheet', lazy: pages['/reports/timesheet'].lazy },
  { path: 'reports/ticket-report', lazy: pages['/reports/ticket-report'].lazy },
  { path: 'audit', lazy: pages['/audit'].lazy },
];

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
      { index: true, element: <Navigate to="/dashboard" replace /> },
      { id: '_public', element: <PublicLayout />, children: [{ path: 'login', lazy: pages['/login'].lazy }] },
      {
        id: '_authenticated',
        lazy: pages.authenticatedLayout.lazy,
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
