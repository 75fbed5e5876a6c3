/**
 * Every page's address (docs/architecture.md#pages-and-navigation). The route table in app/ is
 * built from these, and features link through them and the builders in links.ts, so a link cannot
 * name a page the router does not have. Kept apart from the builders: the sign-in page's first
 * visit loads this file, and nothing more of it.
 */
export const PAGES = {
  login: '/login',
  dashboard: '/dashboard',
  users: '/users',
  tickets: '/tickets',
  companies: '/lookups/companies',
  ticketCategories: '/lookups/ticket-categories',
  calendars: '/lookups/calendars',
  slaPolicies: '/lookups/sla-policies',
  autofi: '/invoices/autofi',
  threeDTracking: '/invoices/3dtracking',
  gifs: '/invoices/gifs',
  gifsStatements: '/invoices/gifs/statement',
  gifsSla: '/invoices/gifs/sla',
  gifsAzure: '/invoices/gifs/azure',
  timesheet: '/reports/timesheet',
  ticketReport: '/reports/ticket-report',
  slaReport: '/reports/sla',
  audit: '/audit',
  webhooks: '/webhooks',
} as const;
