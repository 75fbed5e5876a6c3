/**
 * Helpers for the data-page tests (users, tickets, lookups, invoices, reports, dashboard): a
 * browser per file with signed-in pages, the API as the admin from Node, and the few Mantine
 * widgets those pages share (drawers, modals, selects, toasts, stat cards).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Download, Locator, Page, Request, Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, vi } from 'vitest';
import type { LoginResponse, Role, User } from '../../src/shared/types';
import { AUTH_KEY, DESKTOP, admin, api, apiLogin, launch, newPage, type Credentials, type Viewport } from './browser';

// ---------------------------------------------------------------- the API from Node

// One admin sign-in per test file: failed and successful sign-ins share a rate limit per address.
let adminLogin: Promise<LoginResponse> | undefined;
export const adminSession = () =>
  (adminLogin ??= apiLogin(admin()).then(({ status, body }) => {
    if (status !== 200) throw new Error(`admin sign-in through the API answered ${status}: ${JSON.stringify(body)}`);
    return body;
  }));

/** A call as the admin; throws unless the answer has the expected status (200 by default, 201 for POST). */
export const adminApi = async <T = unknown>(path: string, options: { method?: string; body?: unknown; expect?: number } = {}): Promise<T> => {
  const { token } = await adminSession();
  const answer = await api<T>(path, { ...options, token });
  const wanted = options.expect ?? (options.method === 'POST' ? 201 : options.method === 'DELETE' ? 204 : 200);
  if (answer.status !== wanted) throw new Error(`${options.method ?? 'GET'} ${path} answered ${answer.status}, not ${wanted}: ${JSON.stringify(answer.body)}`);
  return answer.body;
};

/** The admin's answer without checking its status, for tests about refusals. */
export const adminApiAnswer = async <T = unknown>(path: string, options: { method?: string; body?: unknown } = {}) =>
  api<T>(path, { ...options, token: (await adminSession()).token });

/** A new account with `role`, made by the admin through the API, for tests about what a role sees. */
export const makeAccount = async (role: Role, name = 'Rowan'): Promise<Credentials & { id: number; firstName: string; surname: string }> => {
  const tag = uniqueTag();
  const fields = { firstName: `${name}${tag}`, surname: 'Roled', email: `${role}-${tag}@example.com`, password: `pw-${tag}-secret`, role };
  const user = await adminApi<User>('users', { method: 'POST', body: fields });
  expect(user.role).toBe(role);
  return { ...fields, id: user.id };
};

/** Signs in through the API; throws unless it succeeds. */
export const sessionFor = async (credentials: Credentials) => {
  const { status, body } = await apiLogin(credentials);
  if (status !== 200) throw new Error(`sign-in of ${credentials.email} through the API answered ${status}: ${JSON.stringify(body)}`);
  return body;
};

/** expect.poll waits 1 s by default; the pages here may need longer on a busy machine. */
export const POLL = { timeout: 15_000 } as const;

/** A short random tag that keeps the names this run creates apart from demo data and each other. */
export const uniqueTag = () => randomUUID().replace(/-/g, '').slice(0, 8);

// ---------------------------------------------------------------- browser per file

/**
 * One Chromium per test file and a fresh context per `open()`, closed after each test; pages
 * start signed in as the admin (the token is written to local storage once per tab, as the login
 * form would leave it), so each test starts on the page it is about.
 */
export const browserPerFile = () => {
  // These tests walk through several requests each; on a busy two-core machine (the app server,
  // workerd and Chromium share it) a step can take seconds, so they get more room than 30 s.
  vi.setConfig({ testTimeout: 60_000 });
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  // Requests sent and not yet answered, to name what a stuck page load is waiting for.
  const pending = new Map<Request, number>();
  beforeAll(async () => {
    browser = await launch();
  });
  afterEach(async ({ task }) => {
    const open = contexts.splice(0);
    if (task.result?.state === 'fail') {
      // What the page showed when the test failed, to read next to the error.
      const name = task.name.replace(/[^\w-]+/g, '-').slice(0, 80);
      const now = Date.now();
      const stuck = [...pending].map(([request, since]) => `${request.method()} ${request.url()} (${now - since} ms)`);
      if (stuck.length) console.error(`unanswered requests when "${task.name}" failed:\n  ${stuck.join('\n  ')}`);
      const pages = open.flatMap((context) => context.pages());
      await Promise.all(pages.map((page, i) => screenshot(page, `failed-${name}-${i}`).catch(() => undefined)));
    }
    await Promise.all(open.map((context) => context.close()));
    pending.clear();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    /** A page in a fresh context, signed in as the admin, or as `as`, or (`signedIn: false`) not at all. */
    async open(viewport: Viewport = DESKTOP, { signedIn = true, as }: { signedIn?: boolean; as?: Credentials } = {}) {
      if (!browser) throw new Error('browserPerFile(): the browser is not running yet');
      const { context, page } = await newPage(browser, viewport, { acceptDownloads: true });
      contexts.push(context);
      context.on('request', (request) => pending.set(request, Date.now()));
      context.on('requestfinished', (request) => pending.delete(request));
      context.on('requestfailed', (request) => pending.delete(request));
      context.setDefaultTimeout(15_000);
      context.setDefaultNavigationTimeout(30_000);
      if (signedIn) {
        const session = as ? await sessionFor(as) : await adminSession();
        const stored = JSON.stringify({
          token: session.token,
          user: { id: session.userId, firstName: session.firstName, surname: session.surname, email: session.email, role: session.role },
        });
        await page.addInitScript(
          ({ key, value }) => {
            if (sessionStorage.getItem('e2e-signed-in')) return;
            sessionStorage.setItem('e2e-signed-in', '1');
            localStorage.setItem(key, value);
          },
          { key: AUTH_KEY, value: stored },
        );
      }
      return page;
    },
  };
};

// ---------------------------------------------------------------- page parts

/** The page's h1 once it shows `name`. */
export const heading = async (page: Page, name: string) => {
  const h1 = page.getByRole('heading', { level: 1, name, exact: true });
  await h1.waitFor();
  return h1;
};

/** The record drawer (Mantine Drawer) and the modals (Mantine Modal). */
export const drawer = (page: Page) => page.locator('.mantine-Drawer-content');
export const modal = (page: Page) => page.locator('.mantine-Modal-content');

/** The title of the open drawer. */
export const drawerTitle = (page: Page) => drawer(page).locator('.mantine-Drawer-title');

/** Toasts of a kind whose text contains `text`. */
export const toast = (page: Page, kind: 'success' | 'error' | 'info' | 'warning' | 'loading', text: string | RegExp) =>
  page.locator(`[data-testid="toast"][data-kind="${kind}"]`).filter({ hasText: text });

/** A toast's title and description (without its icon), read at once: toasts leave after 4 s. */
export const toastText = async (locator: Locator) => (await locator.first().locator('p').allTextContents()).join(' | ');

/** A stat card's figure by its test id (StatCard: `stat-<label in kebab case>`). */
export const stat = (page: Page, testId: string) => page.getByTestId(testId);

/** Text content with whitespace squeezed, for comparing formatted figures. */
export const textOf = async (locator: Locator) => ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();

/** Waits until the locator's text equals `expected` (Mantine and SWR render in steps). */
export const expectText = async (locator: Locator, expected: string, timeout = 15_000) => {
  await expect.poll(() => textOf(locator), { timeout }).toBe(expected);
};

/**
 * Picks an option of a Mantine Select: `field` is its input (found by label); the options list
 * opens in a portal at the end of the body.
 */
export const choose = async (page: Page, field: Locator, option: string) => {
  await field.click();
  const listbox = page.getByRole('listbox').last();
  await listbox.waitFor();
  await listbox.getByRole('option', { name: option, exact: true }).click();
  await expect.poll(() => field.inputValue(), POLL).toBe(option);
};

/** Money as the page formats it: integer cents in the browser's own locale, as formatCents does. */
export const moneyInPage = (page: Page, cents: number) =>
  page.evaluate((value) => new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' }).format(value / 100), cents);

/** A whole number as the page formats it (toLocaleString in the browser). */
export const numberInPage = (page: Page, value: number) => page.evaluate((n) => n.toLocaleString(), value);

/** The next answer from the API whose path (after /api/v1/) matches `pattern`. */
export const apiResponse = (page: Page, pattern: RegExp, method = 'GET') => {
  const answered = page.waitForResponse((response: Response) => {
    const url = new URL(response.url());
    return response.request().method() === method && url.pathname.startsWith('/api/v1/') && pattern.test(url.pathname.slice('/api/v1/'.length) + url.search);
  });
  // A test that fails before awaiting it must not also report an unhandled rejection.
  answered.catch(() => undefined);
  return answered;
};

/** The body rows of the table labelled `label` (DataTable sets aria-label). */
export const tableRows = (page: Page, label: string) => page.getByRole('table', { name: label, exact: true }).locator('tbody tr');

/** Waits for a DataTable to have finished loading (no skeleton rows, not aria-busy). */
export const tableLoaded = async (page: Page, label: string) => {
  const table = page.getByRole('table', { name: label, exact: true });
  await table.waitFor();
  await expect.poll(() => table.getAttribute('aria-busy'), POLL).toBe('false');
  return table;
};

/** The saved file of a download, as text. */
export const downloadText = async (download: Download) => {
  const path = await download.path();
  return readFileSync(path, 'utf8');
};

/** CSV text as lines, without the byte order mark the app writes for Excel or the trailing empty line. */
export const csvLines = (csv: string) =>
  csv
    .replace(/^\ufeff/, '')
    .split(/\r?\n/)
    .filter((line, i, all) => line !== '' || i < all.length - 1);

/** Saves a screenshot as test-results/<name>.png. */
export const screenshot = async (page: Page, name: string) => {
  mkdirSync('test-results', { recursive: true });
  await page.screenshot({ path: `test-results/${name}.png`, fullPage: false });
};

/** Waits for Mantine's open transition to end, so a box measured now is the final one. */
export const settled = async (locator: Locator) => {
  let last = '';
  await expect
    .poll(async () => {
      const box = JSON.stringify(await locator.boundingBox());
      const same = box === last;
      last = box;
      return same;
    }, { ...POLL, interval: 150 })
    .toBe(true);
  return locator.boundingBox();
};

/**
 * The phone check every data page gets: its h1 renders, and the record drawer, once open, fills
 * the width of the screen.
 */
export const expectFullWidthDrawer = async (page: Page) => {
  const panel = drawer(page);
  await panel.waitFor();
  const box = await settled(panel);
  const width = page.viewportSize()?.width ?? 0;
  expect(box).not.toBeNull();
  expect(Math.round(box?.x ?? -1)).toBe(0);
  expect(Math.round(box?.width ?? 0)).toBe(width);
};

/** Monday and Sunday (YYYY-MM-DD, UTC) of the week holding `now`. */
export const thisWeekUtc = (now = new Date()) => {
  const day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const monday = day - ((now.getUTCDay() + 6) % 7) * 86_400_000;
  const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { from: iso(monday), to: iso(monday + 6 * 86_400_000) };
};

export const todayUtc = () => new Date().toISOString().slice(0, 10);
export const thisMonthUtc = () => new Date().toISOString().slice(0, 7);
