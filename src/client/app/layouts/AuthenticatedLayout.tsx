import '@mantine/core/styles.css';
import { AppShell, Burger, Group, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { lazy, Suspense, useState } from 'react';
import { Link, Navigate, Outlet, useLocation } from 'react-router-dom';
import { useSettingsParams } from '../../lib/addresses/settings';
import { useAuth } from '../../lib/auth-store';
import { loginAddress } from '../../lib/login-address';
import { SearchLauncher } from './SearchLauncher';
import { useStoredRole } from '../../lib/use-stored-role';
import { SideNav } from './SideNav';
import type { NavItem } from './nav-items';
import { MAIN_ID, SkipLink } from './SkipLink';
import { UserMenu } from './UserMenu';
import classes from './authenticated-layout.module.css';
import { PAGES } from '../../lib/pages';

// The live channel and the bell: their own chunk, fetched only once someone is signed in.
const LiveHeader = lazy(() => import('../../lib/live/LiveHeader'));
// The settings dialog and its forms (validation, inputs, the backup list): their own chunk, fetched
// when the dialog is first opened, so a signed-in page's first paint does not wait on their code.
const SettingsDialog = lazy(() => import('../../features/settings/SettingsDialog').then((module) => ({ default: module.SettingsDialog })));

/** The settings dialog, once `?settings=true` has asked for it (then kept, so it can close with its transition). */
function SettingsWhenOpened() {
  const [{ settings }] = useSettingsParams();
  const [wanted, setWanted] = useState(settings === true);
  if (settings === true && !wanted) setWanted(true);
  return wanted ? (
    <Suspense fallback={null}>
      <SettingsDialog />
    </Suspense>
  ) : null;
}

/**
 * Guarded pages inside the app shell; without a token, off to /login with the wanted address. The
 * router hands it the navigation built from the route table.
 */
export function AuthenticatedLayout({ nav }: { nav: NavItem[] }) {
  const { token } = useAuth();
  const location = useLocation();
  const [navOpen, { toggle, close }] = useDisclosure(false);
  useStoredRole();

  if (!token) {
    const wanted = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={loginAddress(wanted)} replace />;
  }

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 250, breakpoint: 'sm', collapsed: { mobile: !navOpen } }}
      padding="md"
    >
      <SkipLink />
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={navOpen} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Text component={Link} to={PAGES.dashboard} fw={700} size="lg" c="inherit" td="none">
              Staff App
            </Text>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <SearchLauncher nav={nav} />
            <Suspense fallback={null}>
              <LiveHeader />
            </Suspense>
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs">
        <SideNav items={nav} onNavigate={close} />
      </AppShell.Navbar>
      {/* tabIndex -1: the skip link and the route announcer focus it; Tab never stops here. */}
      <AppShell.Main id={MAIN_ID} tabIndex={-1} className={classes.main}>
        <Outlet />
      </AppShell.Main>
      <SettingsWhenOpened />
    </AppShell>
  );
}
