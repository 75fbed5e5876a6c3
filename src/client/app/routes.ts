import { DASHBOARD_SUMMARY } from '../features/dashboard/api';
import { lazyPage } from './lazy-page';

type PageModule = Record<string, unknown>;

/**
 * A page's code: `load` fetches the module as is (what the link preloader calls, so a failed
 * preload is only logged), `lazy` is the router's loader, which reloads once on failure. `data`
 * lists the API paths the page reads first, which can be asked for while its code loads.
 */
const page = <M extends PageModule>(load: () => Promise<M>, name: keyof M & string, data: string[] = []) => ({
  load,
  lazy: lazyPage(load, name),
  data,
});

/**
 * Every page the router can load on demand, by path. The router and the link preloader share
 * this table, so preloading fetches exactly the code the route will need.
 */
export const pages = {
  // The signed-in shell (navigation, settings dialog) is code a first visit to /login never needs.
  authenticatedLayout: page(() => import('./layouts/AuthenticatedLayout'), 'AuthenticatedLayout'),
  '/login': page(() => import('../features/auth/LoginPage'), 'LoginPage'),
  '/dashboard': page(() => import('../features/dashboard/DashboardPage'), 'DashboardPage', [DASHBOARD_SUMMARY]),
  '/users': page(() => import('../features/users/UsersPage'), 'UsersPage'),
  '/tickets': page(() => import('../features/tickets/TicketsPage'), 'TicketsPage'),
  '/lookups/ticket-categories': page(() => import('../features/lookups/TicketCategoriesPage'), 'TicketCategoriesPage'),
  '/lookups/companies': page(() => import('../features/lookups/CompaniesPage'), 'CompaniesPage'),
  '/invoices/autofi': page(() => import('../features/invoices/AutofiPage'), 'AutofiPage'),
  '/invoices/3dtracking': page(() => import('../features/invoices/ThreeDTrackingPage'), 'ThreeDTrackingPage'),
  '/invoices/gifs': page(() => import('../features/invoices/GifsLayout'), 'GifsLayout'),
  '/invoices/gifs/index': page(() => import('../features/invoices/GifsOverviewPage'), 'GifsOverviewPage'),
  '/invoices/gifs/statement': page(() => import('../features/invoices/StatementPage'), 'StatementPage'),
  '/invoices/gifs/sla': page(() => import('../features/invoices/SlaPage'), 'SlaPage'),
  '/invoices/gifs/azure': page(() => import('../features/invoices/AzurePage'), 'AzurePage'),
  '/reports/timesheet': page(() => import('../features/reports/TimesheetPage'), 'TimesheetPage'),
  '/reports/ticket-report': page(() => import('../features/reports/TicketReportPage'), 'TicketReportPage'),
  '/audit': page(() => import('../features/audit/AuditPage'), 'AuditPage'),
} as const;

export type PagePath = Exclude<keyof typeof pages, 'authenticatedLayout'>;

const normalise = (path: string) => path.replace(/[?#].*$/, '').replace(/\/+$/, '') || '/';

/** The pages a visit to `to` shows: the page itself and any layout above it. */
const pagesFor = (to: string) => {
  const path = normalise(to);
  return (Object.keys(pages).filter((key) => key.startsWith('/')) as PagePath[])
    .filter((candidate) => candidate === path || candidate === `${path}/index` || path.startsWith(`${candidate}/`))
    .map((candidate) => pages[candidate]);
};

/** The page loaders a link to `to` will need. */
export const loadersFor = (to: string) => pagesFor(to).map((found) => found.load);

/** The API paths the pages at `to` read first. */
export const dataFor = (to: string) => pagesFor(to).flatMap((found) => found.data);
