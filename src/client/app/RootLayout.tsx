import { Outlet, ScrollRestoration } from 'react-router-dom';
import { useFocusFirstInvalidOnSubmit } from '../lib/form/focus-first-invalid';
import { UnsavedChangesGuard } from '../lib/form/UnsavedChangesGuard';
import { NavigationProgress } from './NavigationProgress';
import { RouteAnnouncer } from './RouteAnnouncer';

export function RootLayout() {
  useFocusFirstInvalidOnSubmit();
  return (
    <>
      <NavigationProgress />
      <Outlet />
      <RouteAnnouncer />
      <UnsavedChangesGuard />
      <ScrollRestoration />
    </>
  );
}
