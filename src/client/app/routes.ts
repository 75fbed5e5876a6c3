import { lazyPage } from './lazy-page';

/**
 * Every page the router can load on demand, by path. The router and the link preloader share
 * this table, so preloading fetches exactly the code the route will need.
 */
export const pages = {
  // The signed-in shell (navigation, settings dialog) is code a first visit to /login never needs.
  authenticatedLayout: lazyPage(() => import('./layouts/AuthenticatedLayout'), 'AuthenticatedLayout'),
  '/login': lazyPage(() => import('../features/auth/LoginPage'), 'LoginPage'),
  '/dashboard': lazyPage(() => import('../features/dashboard/DashboardPage'), 'DashboardPage'),
  '/users': lazyPage(() => import('../features/users/UsersPage'), 'UsersPage'),
  '/tickets': lazyPage(() => import('../features/tickets/TicketsPage'), 'TicketsPage'),
  '/lookups/ticket-categories': lazyPage(() => import('../features/lookups/TicketCategoriesPage'), 'TicketCategoriesPage'),
  '/lookups/companies': lazyPage(() => import('../features/lookups/CompaniesPage'), 'CompaniesPage'),
  '/invoices/autofi': lazyPage(() => import('../features/invoices/AutofiPage'), 'AutofiPage'),
  '/invoices/3dtracking': lazyPage(() => import('../features/invoices/ThreeDTrackingPage'), 'ThreeDTrackingPage'),
  '/invoices/gifs': lazyPage(() => import('../features/invoices/GifsLayout'), 'GifsLayout'),
  '/invoices/gifs/index': lazyPage(() => import('../features/invoices/GifsOverviewPage'), 'GifsOverviewPage'),
  '/invoices/gifs/statement': lazyPage(() => import('../features/invoices/StatementPage'), 'StatementPage'),
  '/invoices/gifs/sla': lazyPage(() => import('../features/invoices/SlaPage'), 'SlaPage'),
  '/invoices/gifs/azure': lazyPage(() => import('../features/invoices/AzurePage'), 'AzurePage'),
  '/reports/timesheet': lazyPage(() => import('../features/reports/TimesheetPage'), 'TimesheetPage'),
  '/reports/ticket-report': lazyPage(() => import('../features/reports/TicketReportPage'), 'TicketReportPage'),
} as const;

export type PagePath = Exclude<keyof typeof pages, 'authenticatedLayout'>;

const normalise = (path: string) => path.replace(/[?#].*$/, '').replace(/\/+$/, '') || '/';

/** The page loaders a link to `to` will need: the page itself and any layout above it. */
export const loadersFor = (to: string) => {
  const path = normalise(to);
  return (Object.keys(pages).filter((key) => key.startsWith('/')) as PagePath[])
    .filter((candidate) => candidate === path || candidate === `${path}/index` || path.startsWith(`${candidate}/`))
    .map((candidate) => pages[candidate]);
};
