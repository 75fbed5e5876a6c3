import { MantineProvider, localStorageColorSchemeManager } from '@mantine/core';
import { RouterProvider } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { DEFAULT_THEME, THEME_STORAGE_KEY } from '../lib/constants';
import { RoutePreloadContext } from '../lib/route-preload';
import { Toasts } from '../lib/toast/Toasts';
import { preloadRoute } from './preload-route';
import { router } from './router';
import { swrConfig } from './swr-config';
import { cssVariablesResolver, theme } from './theme';

const colorSchemeManager = localStorageColorSchemeManager({ key: THEME_STORAGE_KEY });

export function App() {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme={DEFAULT_THEME} colorSchemeManager={colorSchemeManager}>
      <SWRConfig value={swrConfig}>
        <RoutePreloadContext value={preloadRoute}>
          <RouterProvider router={router} />
        </RoutePreloadContext>
        <Toasts />
      </SWRConfig>
    </MantineProvider>
  );
}
