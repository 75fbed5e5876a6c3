import { NavLink, ScrollArea } from '@mantine/core';
import { useLocation } from 'react-router-dom';
import { may } from '../../../shared/permissions';
import type { Role } from '../../../shared/types';
import { useAuth } from '../../lib/auth-store';
import { PreloadLink } from '../PreloadLink';
import type { NavItem } from './nav-items';

/** The items a role may use, at every level. */
const visibleTo = (items: NavItem[], role: Role | null | undefined): NavItem[] =>
  items.flatMap((item): NavItem[] => {
    if ('children' in item) return [{ ...item, children: visibleTo(item.children, role) }];
    return !item.requires || may(role, item.requires) ? [item] : [];
  });

const isActive = (pathname: string, to: string) => pathname.replace(/\/+$/, '') === to;
const containsActive = (pathname: string, item: NavItem): boolean =>
  'children' in item ? item.children.some((child) => containsActive(pathname, child)) : isActive(pathname, item.to);

function Item({ item, pathname, onNavigate }: { item: NavItem; pathname: string; onNavigate: () => void }) {
  if ('children' in item) {
    return (
      <NavLink label={item.label} defaultOpened={containsActive(pathname, item)} childrenOffset="md">
        {item.children.map((child) => (
          <Item key={child.label} item={child} pathname={pathname} onNavigate={onNavigate} />
        ))}
      </NavLink>
    );
  }
  const { to } = item;
  const active = isActive(pathname, to);
  return (
    <NavLink
      component={PreloadLink}
      to={to}
      label={item.label}
      active={active}
      aria-current={active ? 'page' : undefined}
      onClick={onNavigate}
    />
  );
}

export function SideNav({ items, onNavigate }: { items: NavItem[]; onNavigate: () => void }) {
  const { pathname } = useLocation();
  const role = useAuth().user?.role;
  return (
    <ScrollArea component="nav" aria-label="Main" h="100%">
      {visibleTo(items, role).map((item) => (
        <Item key={item.label} item={item} pathname={pathname} onNavigate={onNavigate} />
      ))}
    </ScrollArea>
  );
}
