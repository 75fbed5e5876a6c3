import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { baseUrl, launch, newPage } from './fixtures';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The build files the login page names in its HTML: the entry script and its style sheet. */
const buildFilesOfLoginPage = async () => {
  const html = await (await fetch(`${baseUrl()}/login/`)).text();
  return [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1] as string);
};

it('lets the browser keep build files for a year, and has pages revalidated', async () => {
  const files = await buildFilesOfLoginPage();
  expect(files.some((file) => file.endsWith('.js'))).toBe(true);
  expect(files.some((file) => file.endsWith('.css'))).toBe(true);
  for (const file of files) {
    const res = await fetch(`${baseUrl()}${file}`);
    expect(res.status, file).toBe(200);
    expect(res.headers.get('cache-control'), file).toBe(IMMUTABLE);
    expect(res.headers.get('x-content-type-options'), file).toBe('nosniff');
  }
  const page = await fetch(`${baseUrl()}/dashboard/`, { headers: { 'sec-fetch-mode': 'navigate' } });
  expect(page.headers.get('cache-control')).toMatch(/max-age=0|no-cache/);
});

it('answers a build file that does not exist with 404, not the app page', async () => {
  const res = await fetch(`${baseUrl()}/assets/TicketsPage-gone1234.js`, { headers: { 'sec-fetch-dest': 'script' } });
  expect(res.status).toBe(404);
  expect(await res.text()).not.toContain('<div id="root">');
});

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

it('asks the server for no build file again when the login page is visited a second time', async () => {
  const { context, page } = await newPage(browser);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  // Memory-cache hits are reported apart from the response, by request id.
  const servedFromCache = new Set<string>();
  const responses: { requestId: string; url: string; fromDiskCache?: boolean }[] = [];
  cdp.on('Network.requestServedFromCache', ({ requestId }) => servedFromCache.add(requestId));
  cdp.on('Network.responseReceived', ({ requestId, response }) => responses.push({ requestId, url: response.url, fromDiskCache: response.fromDiskCache }));
  const fromServer = () =>
    responses.splice(0).filter(({ requestId, url, fromDiskCache }) => new URL(url).pathname.startsWith('/assets/') && !fromDiskCache && !servedFromCache.has(requestId));
  await page.goto('/login/');
  await page.getByRole('button', { name: 'Login' }).waitFor();
  // The passkey code loads once the form shows; it is part of the first visit, not the second.
  await page.waitForLoadState('networkidle');
  expect(fromServer().length).toBeGreaterThan(0);
  await page.goto('/login/');
  await page.getByRole('button', { name: 'Login' }).waitFor();
  expect(fromServer()).toEqual([]);
  await context.close();
});

// Security review (docs/decisions.md#the-security-review), findings 10 and 11, against the built app as `npm start` serves it.
it('serves a real icon at /favicon.ico', async () => {
  const res = await fetch(`${baseUrl()}/favicon.ico`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
  expect([...new Uint8Array(await res.arrayBuffer()).slice(0, 4)]).toEqual([0, 0, 1, 0]);
});

it('builds source maps without linking or serving them', async () => {
  const scripts = (await buildFilesOfLoginPage()).filter((file) => file.endsWith('.js'));
  for (const file of scripts) {
    expect(await (await fetch(`${baseUrl()}${file}`)).text(), file).not.toContain('sourceMappingURL');
    const map = await fetch(`${baseUrl()}${file}.map`);
    expect(map.status, `${file}.map`).toBe(404);
    expect(await map.text()).not.toContain('"sources"');
  }
});

it('answers a missing file with 404 and an unknown /api path with JSON 404, while pages keep the app', async () => {
  for (const path of ['/robots.txt', '/logo.png']) expect((await fetch(`${baseUrl()}${path}`)).status, path).toBe(404);
  for (const path of ['/api/v2/x', '/API/V1/users/1']) {
    const res = await fetch(`${baseUrl()}${path}`);
    expect(res.status, path).toBe(404);
    expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
  }
  expect(await (await fetch(`${baseUrl()}/tickets/`)).text()).toContain('<div id="root">');
});
