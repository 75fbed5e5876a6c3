import { Tabs } from '@mantine/core';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import type { RouteTab } from '../routes';

/** A layout route's pages under one set of tabs (such as the GIFS views), built from the route table. */
export function TabsLayout({ tabs }: { tabs: RouteTab[] }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const current = pathname.replace(/\/+$/, '');
  return (
    <>
      <Tabs value={current} onChange={(value) => value && navigate(value)} mb="md">
        <Tabs.List>
          {tabs.map((tab) => (
            <Tabs.Tab key={tab.to} value={tab.to}>
              {tab.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Outlet />
    </>
  );
}
