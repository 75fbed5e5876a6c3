import { createExecutionContext, env } from 'cloudflare:test';
import { expect, it } from 'vitest';
import { BUILD_FILE_CACHE_CONTROL, BUILD_FILES_PREFIX } from '../../src/worker/assets';
import { createApp } from '../../src/worker/index';

const REVALIDATE = 'public, max-age=0, must-revalidate';
const PAGE = '<!doctype html><title>Staff App</title>';

/**
 * The test pool has no built bundle, so a stand-in ASSETS binding answers the way the asset server
 * does: the file when it exists, otherwise (single-page-application fallback) the app's page, 200.
 */
const files: Record<string, [body: string, type: string]> = {
  '/assets/index-abc123.js': ['export {};', 'text/javascript'],
  '/assets/index-abc123.css': ['body{}', 'text/css'],
};
const assets = {
  fetch: async (request: Request) => {
    const [body, type] = files[new URL(request.url).pathname] ?? [PAGE, 'text/html; charset=utf-8'];
    if (request.headers.get('if-none-match') === '"same"') return new Response(null, { status: 304, headers: { etag: '"same"' } });
    return new Response(body, { headers: { 'content-type': type, 'cache-control': REVALIDATE, etag: '"same"' } });
  },
};
const get = (path: string, headers: HeadersInit = {}) =>
  createApp().fetch(new Request(`https://app.test${path}`, { headers }), { ...env, ASSETS: assets }, createExecutionContext());

it.each(Object.keys(files))('lets the browser keep the build file %s for a year', async (path) => {
  expect(path.startsWith(BUILD_FILES_PREFIX)).toBe(true);
  const res = await get(path);
  expect(res.status).toBe(200);
  expect(await res.text()).toBe(files[path]?.[0]);
  expect(res.headers.get('cache-control')).toBe(BUILD_FILE_CACHE_CONTROL);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
});

it('keeps the year on a revalidated build file', async () => {
  const res = await get('/assets/index-abc123.js', { 'if-none-match': '"same"' });
  expect(res.status).toBe(304);
  expect(res.headers.get('cache-control')).toBe(BUILD_FILE_CACHE_CONTROL);
});

it.each(['/login/', '/dashboard/', '/tickets/?id=4', '/'])('has pages %s revalidated, so a deploy shows at once', async (path) => {
  const res = await get(path);
  expect(res.status).toBe(200);
  expect(await res.text()).toBe(PAGE);
  expect(res.headers.get('cache-control')).toBe(REVALIDATE);
});

it('answers a missing build file with 404, not the page (which the browser would run as a script)', async () => {
  const res = await get('/assets/TicketsPage-removed1.js', { 'sec-fetch-dest': 'script' });
  expect(res.status).toBe(404);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  expect(res.headers.get('cache-control')).not.toBe(BUILD_FILE_CACHE_CONTROL);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
});

// Security review (docs/decisions.md#the-security-review), finding 10: source maps are built for ops but never served, even when the asset
// server has them.
it.each(['/assets/index-abc123.js.map', '/assets/index-abc123.css.map', '/assets/INDEX-ABC123.JS.MAP', '/index.js.map'])(
  'answers the source map %s with 404',
  async (path) => {
    files[path] = ['{"version":3,"sources":["src/secret.ts"]}', 'application/json'];
    const res = await get(path);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('sources');
    expect(res.headers.get('cache-control')).not.toBe(BUILD_FILE_CACHE_CONTROL);
  },
);

// Security review (docs/decisions.md#the-security-review), finding 11: a file that is not there is a 404, while page paths keep the fallback.
it.each(['/favicon.ico', '/robots.txt', '/logo.png', '/nested/path/image.svg', '/.env'])(
  'answers the missing file %s with 404, not the app page',
  async (path) => {
    const res = await get(path);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toBe(PAGE);
  },
);

it('serves a file that is there, such as the icon', async () => {
  files['/favicon.ico'] = ['\u0000\u0000\u0001\u0000', 'image/x-icon'];
  const res = await get('/favicon.ico');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('image/x-icon');
});

it.each(['/tickets/', '/users', '/invoices/gifs/statement/?statementId=3', '/index.html'])('keeps the app page for %s', async (path) => {
  const res = await get(path);
  expect(res.status).toBe(200);
  expect(await res.text()).toBe(PAGE);
});
