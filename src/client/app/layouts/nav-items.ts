import type { Permission } from '../../../shared/permissions';
import { ALL_ROUTES, type AppPath } from '../routes';

/** A page in the side navigation. */
export interface NavLinkItem {
  label: string;
  to: AppPath;
  /** Shown only to roles that may do this. */
  requires?: Permission;
}

/** A group of pages in the side navigation. */
export interface NavGroupItem {
  label: string;
  children: NavItem[];
}

/** The side navigation: every area of the app, grouped as docs/architecture.md#pages-and-navigation lists them. */
export type NavItem = NavLinkItem | NavGroupItem;

/** The route table's named pages in its order; a group sits where its first page comes. */
const navItems = (): NavItem[] => {
  const items: NavItem[] = [];
  for (const route of ALL_ROUTES) {
    if (!route.nav) continue;
    const item: NavLinkItem = { label: route.nav, to: route.path, ...(route.requires && { requires: route.requires }) };
    if (!route.group) {
      items.push(item);
      continue;
    }
    const group = items.find((candidate): candidate is NavGroupItem => 'children' in candidate && candidate.label === route.group);
    if (group) group.children.push(item);
    else items.push({ label: route.group, children: [item] });
  }
  return items;
};

export const NAV_ITEMS = navItems();
