/** Constants from docs/architecture.md#constants that the client and the Worker both use; the client's own are in src/client/lib/constants.ts. */
export const API_VERSION = 'v1';
export const API_BASE = `/api/${API_VERSION}`;
export const REQUEST_TIMEOUT_MS = 10_000;
export const MAX_REQUEST_BODY_BYTES = 10 * 1024 * 1024;

export const MAX_PAGE_SIZE = 200;
export const DEFAULT_PAGE_SIZE = 25;

/** The app's audience name: the login form's hidden field, and APP_AUDIENCE in wrangler.toml. */
export const APP_AUDIENCE = 'staff-app';
