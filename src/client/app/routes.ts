import type { ComponentProps, ComponentType } from 'react';
import type { Permission } from '../../shared/permissions';
import type { LedgerPage } from '../features/invoices/LedgerPage';
import { dashboardSummaryPath } from '../lib/dashboard-summary';
import { PAGES } from '../lib/pages';

type PageModule = Record<string, unknown>;

/** A page's code: its module, the component it exports and the props the route gives it, checked against each other. */
export interface PageCode {
  load: () => Promise<PageModule>;
  name: string;
  props?: object;
}

type PropsOf<C> = C extends ComponentType<infer P> ? P : never;

const page = <M extends PageModule, N extends keyof M & string>(load: () => Promise<M>, name: N, props?: PropsOf<M[N]> & object): PageCode => ({ load, name, props });
/** A ledger page: one component, told its source and titles by the route. */
const ledger = (props: ComponentProps<typeof LedgerPage>) =>
  page(() => import('../features/invoices/LedgerPage'), 'LedgerPage', props);

/** The groups of the side navigation (docs/architecture.md#pages-and-navigation), in the order their first page comes. */
type NavGroup = 'Lookups' | 'Invoices' | 'Reports';

export interface RouteDef {
  readonly path: `/${string}`;
  readonly page: PageCode;
  /** Its name in the side navigation; a route without one is not listed there. */
  readonly nav?: string;
  readonly group?: NavGroup;
  /** Its name as a tab of the layout above it. */
  readonly tab?: string;
  /** Listed only for roles that may do this (the provider enforces it either way). */
  readonly requires?: Permission;
  /** Shown without signing in, outside the app shell. */
  readonly public?: true;
  /**
   * The SWR keys the page reads first, exactly as its hooks spell them, to ask for them early;
   * worked out when asked, since a key may hold the person's today.
   */
  readonly data?: readonly (() => string)[];
  /** Pages shown inside this one as tabs; a child with the parent's own path is the index. */
  readonly children?: readonly RouteDef[];
}

/**
 * Every page of the app, in side-navigation order. The router, the side navigation, the command
 * palette's page list, tabbed layouts and preloading are all built from this one table.
 */
export const ROUTES = [
  { path: PAGES.login, public: true, page: page(() => import('../features/auth/LoginPage'), 'LoginPage') },
  { path: PAGES.dashboard, nav: 'Dashboard', page: page(() => import('../features/dashboard/DashboardPage'), 'DashboardPage'), data: [dashboardSummaryPath] },
  { path: PAGES.users, nav: 'Users', page: page(() => import('../features/users/UsersPage'), 'UsersPage') },
  { path: PAGES.tickets, nav: 'Tickets', page: page(() => import('../features/tickets/TicketsPage'), 'TicketsPage') },
  { path: PAGES.companies, group: 'Lookups', nav: 'Companies', page: page(() => import('../features/lookups/CompaniesPage'), 'CompaniesPage') },
  {
    path: PAGES.ticketCategories,
    group: 'Lookups',
    nav: 'Ticket categories',
    page: page(() => import('../features/lookups/TicketCategoriesPage'), 'TicketCategoriesPage'),
  },
  { path: PAGES.calendars, group: 'Lookups', nav: 'Calendars', page: page(() => import('../features/lookups/CalendarsPage'), 'CalendarsPage') },
  { path: PAGES.slaPolicies, group: 'Lookups', nav: 'SLA policies', page: page(() => import('../features/lookups/SlaPoliciesPage'), 'SlaPoliciesPage') },
  { path: PAGES.autofi, group: 'Invoices', nav: 'Autofi', page: ledger({ source: 'autofi' }) },
  { path: PAGES.threeDTracking, group: 'Invoices', nav: '3D Tracking', page: ledger({ source: '3dtracking' }) },
  {
    path: PAGES.gifs,
    page: page(() => import('./layouts/TabsLayout'), 'TabsLayout'),
    children: [
      { path: PAGES.gifs, group: 'Invoices', nav: 'GIFS overview', tab: 'Overview', page: page(() => import('../features/invoices/GifsOverviewPage'), 'GifsOverviewPage') },
      { path: PAGES.gifsStatements, group: 'Invoices', nav: 'GIFS statements', tab: 'Statements', page: page(() => import('../features/invoices/StatementPage'), 'StatementPage') },
      { path: PAGES.gifsSla, group: 'Invoices', nav: 'GIFS SLA', tab: 'SLA', page: ledger({ source: 'gifs-sla' }) },
      { path: PAGES.gifsAzure, group: 'Invoices', nav: 'GIFS Azure', tab: 'Azure', page: ledger({ source: 'gifs-azure' }) },
    ],
  },
  { path: PAGES.timesheet, group: 'Reports', nav: 'Timesheet', page: page(() => import('../features/reports/TimesheetPage'), 'TimesheetPage') },
  { path: PAGES.ticketReport, group: 'Reports', nav: 'Ticket report', page: page(() => import('../features/reports/TicketReportPage'), 'TicketReportPage') },
  { path: PAGES.slaReport, group: 'Reports', nav: 'Service levels', page: page(() => import('../features/reports/SlaReportPage'), 'SlaReportPage') },
  { path: PAGES.audit, nav: 'Audit log', requires: 'readAuditLog', page: page(() => import('../features/audit/AuditPage'), 'AuditPage') },
  { path: PAGES.webhooks, nav: 'Webhooks', requires: 'manageWebhooks', page: page(() => import('../features/webhooks/WebhooksPage'), 'WebhooksPage') },
] as const satisfies readonly RouteDef[];

/** The signed-in shell (navigation, settings dialog): code a first visit to /login never needs. */
export const SHELL = page(() => import('./layouts/AuthenticatedLayout'), 'AuthenticatedLayout');

type Flatten<R> = R extends { readonly children: readonly (infer C)[] } ? R | Flatten<C> : R;

/** Every address the table knows; a link typed with it cannot point at a page that does not exist. */
export type AppPath = Flatten<(typeof ROUTES)[number]>['path'];

/** A route of the table, its address narrowed to the table's own. */
export type TableRoute = RouteDef & { readonly path: AppPath };

/** A tab of a tabbed layout. */
export interface RouteTab {
  to: AppPath;
  label: string;
}

/** The tabs of a layout route, from its children. */
export const tabsOf = (route: TableRoute): RouteTab[] | undefined =>
  (route.children as readonly TableRoute[] | undefined)?.map((child) => ({ to: child.path, label: child.tab ?? child.nav ?? child.path }));

const flatten = (routes: readonly TableRoute[]): TableRoute[] =>
  routes.flatMap((route) => [route, ...flatten((route.children ?? []) as readonly TableRoute[])]);

/** Every route, layouts before their pages. (The casts only narrow: each path here is in the table.) */
export const ALL_ROUTES = flatten(ROUTES);

const normalise = (path: string) => path.replace(/[?#].*$/, '').replace(/\/+$/, '') || '/';

/**
 * The routes a visit to `to` shows, outermost first: a layout whose address `to` lies under, and
 * the page at exactly `to` (a layout's index page shares the layout's address).
 */
export const routesFor = (to: string, routes: readonly RouteDef[] = ROUTES): RouteDef[] => {
  const path = normalise(to);
  return routes.flatMap((route) => {
    if (route.children) return path === route.path || path.startsWith(`${route.path}/`) ? [route, ...routesFor(path, route.children)] : [];
    return route.path === path ? [route] : [];
  });
};
