import { Outlet, ScrollRestoration } from 'react-router-dom';
import { useFocusFirstInvalidOnSubmit } from '../lib/form/focus-first-invalid';
import { NavigationProgress } from './NavigationProgress';
import { RouteAnnouncer } from './RouteAnnouncer';

export function RootLayout() {
  useFocusFirstInvalidOnSubmit();
  return (
    <>
      <NavigationProgress />
      <Outlet />
      <RouteAnnouncer />
      <ScrollRestoration />
    </>
  );
}
