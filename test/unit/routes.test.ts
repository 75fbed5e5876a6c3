import { describe, expect, it } from 'vitest';
import { NAV_ITEMS } from '../../src/client/app/layouts/nav-items';
import { ALL_ROUTES, routesFor, tabsOf, type AppPath } from '../../src/client/app/routes';

// The route table is the one place routes are declared; these are what is built from it.
describe('the route table', () => {
  it('builds the side navigation of docs/architecture.md#pages-and-navigation, in its order and with its labels', () => {
    expect(NAV_ITEMS).toEqual([
      { label: 'Dashboard', to: '/dashboard' },
      { label: 'Users', to: '/users' },
      { label: 'Tickets', to: '/tickets' },
      {
        label: 'Lookups',
        children: [
          { label: 'Companies', to: '/lookups/companies' },
          { label: 'Ticket categories', to: '/lookups/ticket-categories' },
          { label: 'Calendars', to: '/lookups/calendars' },
          { label: 'SLA policies', to: '/lookups/sla-policies' },
        ],
      },
      {
        label: 'Invoices',
        children: [
          { label: 'Autofi', to: '/invoices/autofi' },
          { label: '3D Tracking', to: '/invoices/3dtracking' },
          { label: 'GIFS overview', to: '/invoices/gifs' },
          { label: 'GIFS statements', to: '/invoices/gifs/statement' },
          { label: 'GIFS SLA', to: '/invoices/gifs/sla' },
          { label: 'GIFS Azure', to: '/invoices/gifs/azure' },
        ],
      },
      {
        label: 'Reports',
        children: [
          { label: 'Timesheet', to: '/reports/timesheet' },
          { label: 'Ticket report', to: '/reports/ticket-report' },
          { label: 'Service levels', to: '/reports/sla' },
        ],
      },
      { label: 'Audit log', to: '/audit', requires: 'readAuditLog' },
      { label: 'Webhooks', to: '/webhooks', requires: 'manageWebhooks' },
    ]);
  });

  it('builds the GIFS tabs from the GIFS layout’s pages', () => {
    const gifs = ALL_ROUTES.find((route) => route.children && route.path === '/invoices/gifs');
    expect(gifs && tabsOf(gifs)).toEqual([
      { to: '/invoices/gifs', label: 'Overview' },
      { to: '/invoices/gifs/statement', label: 'Statements' },
      { to: '/invoices/gifs/sla', label: 'SLA' },
      { to: '/invoices/gifs/azure', label: 'Azure' },
    ]);
  });

  it('finds the page at an address, and the layout above it, for preloading', () => {
    const paths = (to: string) => routesFor(to).map((route) => route.path);
    expect(paths('/dashboard/')).toEqual(['/dashboard']);
    expect(paths('/tickets/?id=3#x')).toEqual(['/tickets']);
    expect(paths('/invoices/gifs/sla')).toEqual(['/invoices/gifs', '/invoices/gifs/sla']);
    expect(paths('/invoices/gifs')).toEqual(['/invoices/gifs', '/invoices/gifs']);
    expect(paths('/invoices/gifs/nope')).toEqual(['/invoices/gifs']);
    expect(paths('/nowhere')).toEqual([]);
  });

  it('types addresses by the table: one it does not know fails `npm run typecheck`', () => {
    const known: AppPath = '/invoices/gifs/sla';
    // @ts-expect-error: the table has no such page
    const unknown: AppPath = '/invoices/gifs/nope';
    expect(routesFor(known)).toHaveLength(2);
    expect(routesFor(unknown)).toHaveLength(1);
  });
});
