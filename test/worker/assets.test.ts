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
