import type { Permission } from '../../../shared/permissions';

/** The side navigation: every area of the app, grouped as SPEC.md §2 lists them. */
export interface NavItem {
  label: string;
  to?: string;
  children?: NavItem[];
  /** Shown only to roles that may do this. */
  requires?: Permission;
}

export const NAV_ITEMS: NavItem[] = [
  { label: 'Dashboard', to: '/dashboard' },
  { label: 'Users', to: '/users' },
  { label: 'Tickets', to: '/tickets' },
  {
    label: 'Lookups',
    children: [
      { label: 'Companies', to: '/lookups/companies' },
      { label: 'Ticket categories', to: '/lookups/ticket-categories' },
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
    ],
  },
  { label: 'Audit log', to: '/audit', requires: 'readAuditLog' },
];
