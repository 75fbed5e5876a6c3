/** The client's own constants from docs/architecture.md#constants: timings, toasts, storage keys, tabs. */
export const ROUTE_PENDING_MIN_MS = 250;
export const LINK_PRELOAD_MARGIN_PX = 100;

export const TOAST = {
  durationMs: 4000,
  visibleLimit: 3,
  gapPx: 14,
  widthPx: 356,
  swipeThresholdPx: 45,
  removeDelayMs: 200,
  hotkey: 'Alt+T',
  offsetDesktopPx: 24,
  offsetMobilePx: 16,
  position: 'top-right',
} as const;

export const THEME_STORAGE_KEY = 'theme';
export const DEFAULT_THEME = 'light';

export const STORE_NAME = 'staff-app';
export const AUTH_STORAGE_KEY = `${STORE_NAME}-auth`;

export const SETTINGS_TABS = ['profile', 'security', 'notifications', 'database', 'api-tokens', 'mail'] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];
