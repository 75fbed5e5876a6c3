import { Tabs } from '@mantine/core';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';

const TABS = [
  { value: '/invoices/gifs', label: 'Overview' },
  { value: '/invoices/gifs/statement', label: 'Statements' },
  { value: '/invoices/gifs/sla', label: 'SLA' },
  { value: '/invoices/gifs/azure', label: 'Azure' },
];

/** `/invoices/gifs`: the GIFS views under one set of tabs. */
export function GifsLayout() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const current = pathname.replace(/\/+$/, '');
  return (
    <>
      <Tabs value={current} onChange={(value) => value && navigate(value)} mb="md">
        <Tabs.List>
          {TABS.map((tab) => (
            <Tabs.Tab key={tab.value} value={tab.value}>
              {tab.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Outlet />
    </>
  );
}
