import type { MiddlewareHandler } from 'hono';

// Vite's dev server injects an inline React Refresh preamble; production builds have no inline
// script, so only `npm run dev` (mode 'development', not vitest's 'test') relaxes script-src.
const scriptSrc = import.meta.env?.MODE === 'development' ? "'self' 'unsafe-inline'" : "'self'";

const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  `script-src ${scriptSrc}`,
  "style-src 'self' 'unsafe-inline'",
  // blob: is an attachment's thumbnail, fetched with the token and shown from an object URL.
  "img-src 'self' data: blob:",
  // blob: is a PDF attachment's preview, fetched the same way and shown in a frame of the page.
  "frame-src 'self' blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The security headers of every response the Worker sends, pages and API alike: the set Hono's
 * secureHeaders gives with this CSP and policy, written out once so a request only copies them.
 */
export const SECURITY_HEADERS: readonly (readonly [name: string, value: string])[] = [
  ['Content-Security-Policy', CONTENT_SECURITY_POLICY],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Origin-Agent-Cluster', '?1'],
  ['Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(), usb=()'],
  ['Referrer-Policy', 'strict-origin-when-cross-origin'],
  ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-DNS-Prefetch-Control', 'off'],
  ['X-Download-Options', 'noopen'],
  ['X-Frame-Options', 'DENY'],
  ['X-Permitted-Cross-Domain-Policies', 'none'],
  ['X-XSS-Protection', '0'],
];

export const securityHeaders = (): MiddlewareHandler => async (c, next) => {
  await next();
  const { headers } = c.res;
  // An attachment's own policy is stricter (a sandbox: src/worker/provider/files/serve.ts) and stays.
  const sandboxed = /^sandbox\b/.test(headers.get('Content-Security-Policy') ?? '');
  for (const [name, value] of SECURITY_HEADERS) if (!(sandboxed && name === 'Content-Security-Policy')) headers.set(name, value);
  headers.delete('X-Powered-By');
};
