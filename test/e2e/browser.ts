import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Locator,
  type Page,
  type Request,
  type Route,
} from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';
import type { LoginResponse } from '../../src/shared/types';

// The flags this machine needs: no sandbox as root, and no background calls to a closed network.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Viewport {
  width: number;
  height: number;
}

export const DESKTOP: Viewport = { width: 1400, height: 900 };
export const PHONE: Viewport = { width: 390, height: 844 };
/** Both sizes every screen is checked at, with a name for test titles and screenshot files. */
export const VIEWPORTS = [
  { name: 'desktop', viewport: DESKTOP },
  { name: 'phone', viewport: PHONE },
] as const;

export const AUTH_KEY = 'staff-app-auth';
export const LOGIN_API = '**/api/v1/auth/login';
export const PROFILE_API = '**/api/v1/users/profile';
export const BACKUP_API = '**/api/v1/settings/backup-db';

export const launch = () =>
  chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: CHROMIUM_ARGS });

export const baseUrl = () => inject('baseUrl');

export const newPage = async (
  browser: Browser,
  viewport: Viewport = DESKTOP,
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page }> => {
  const context = await browser.newContext({ viewport, baseURL: baseUrl(), ...options });
  const page = await context.newPage();
  return { context, page };
};

/**
 * One Chromium per test file, and a fresh context per `open()` that is closed after each test
 * even when the test fails, so tests never share cookies, storage or routes.
 */
export const browserForFile = () => {
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await launch();
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    /** A page in a fresh context; `as` starts it signed in as that account. */
    async open(viewport: Viewport = DESKTOP, { as, context: options }: { as?: Credentials; context?: BrowserContextOptions } = {}) {
      if (!browser) throw new Error('browserForFile(): the browser is not running yet');
      const { context, page } = await newPage(browser, viewport, options);
      contexts.push(context);
      // Inside the 30 s test timeout, so a missing element fails with its own message.
      context.setDefaultTimeout(15_000);
      if (as) await startSignedIn(page, as);
      return page;
    },
  };
};

// ---------------------------------------------------------------- accounts and the API

export interface Credentials {
  email: string;
  password: string;
}

export const ADMIN_EMAIL = 'admin@example.com';
export const adminPassword = () => inject('adminPassword');
export const admin = (): Credentials => ({ email: ADMIN_EMAIL, password: adminPassword() });

export interface ApiAnswer<T = unknown> {
  status: number;
  body: T;
}

/**
 * One call to the app's API from Node, with the bearer token when one is given; the body is parsed
 * as JSON when it is JSON, else kept as text.
 */
export const api = async <T = unknown>(
  path: string,
  { method = 'GET', body, token }: { method?: string; body?: unknown; token?: string } = {},
): Promise<ApiAnswer<T>> => {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${baseUrl()}/api/v1/${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON (a CSV export): keep the text
  }
  return { status: response.status, body: parsed as T };
};

/** POST auth/login as the given account. */
export const apiLogin = ({ email, password }: Credentials) =>
  api<LoginResponse>('auth/login', { method: 'POST', body: { username: email, password, audience: 'staff-app' } });

/** Calls the API as the holder of `token`. */
export const apiAs =
  (token: string) =>
  <T = unknown>(path: string, options: { method?: string; body?: unknown } = {}) =>
    api<T>(path, { ...options, token });

interface Session {
  token: string;
  user: { id: number; firstName: string; surname: string; email: string; role: LoginResponse['role'] };
}

const openSession = async (credentials: Credentials): Promise<Session> => {
  const { status, body } = await apiLogin(credentials);
  if (status !== 200) throw new Error(`login of ${credentials.email} through the API answered ${status}`);
  const { token, userId, firstName, surname, email, role } = body;
  return { token, user: { id: userId, firstName, surname, email, role } };
};

let adminSession: Promise<Session> | undefined;
const sessionOf = (credentials: Credentials) =>
  credentials.email === ADMIN_EMAIL ? (adminSession ??= openSession(credentials)) : openSession(credentials);

const asAdmin = async () => apiAs((await sessionOf(admin())).token);

/**
 * Starts the page signed in, as the login form would leave it, for tests about what comes after
 * sign-in (the auth tests go through the form itself). The session is written once per tab, so a
 * logout or a 401 later in the test is not undone by the next reload.
 */
export const startSignedIn = async (page: Page, credentials: Credentials = admin()) => {
  const session = JSON.stringify(await sessionOf(credentials));
  await page.addInitScript(
    ({ origin, key, value }) => {
      if (window.location.origin !== origin || sessionStorage.getItem('e2e-session-written')) return;
      sessionStorage.setItem('e2e-session-written', '1');
      localStorage.setItem(key, value);
    },
    { origin: new URL(baseUrl()).origin, key: AUTH_KEY, value: session },
  );
};

export interface TestUser extends Credentials {
  id: number;
  firstName: string;
  surname: string;
}

/**
 * A new account made through POST /api/v1/users, for tests that change a profile or a password:
 * the admin's account is shared by every test file and must stay as it is.
 */
export const createUser = async (): Promise<TestUser> => {
  const tag = randomUUID().slice(0, 8);
  const fields = { firstName: `Fay${tag}`, surname: 'Tester', email: `e2e-${tag}@example.com`, password: `pw-${tag}-secret` };
  const { status, body } = await (await asAdmin())<{ id: number }>('users', { method: 'POST', body: fields });
  if (status !== 201) throw new Error(`creating a user answered ${status}: ${JSON.stringify(body)}`);
  return { ...fields, id: body.id };
};

// ---------------------------------------------------------------- signing in

/** Fills in the login form on the current page, without submitting it. */
export const fillLogin = async (page: Page, { email, password }: Credentials) => {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
};

/** Opens the login form at `path` (which may carry a redirect), fills it in and submits it. */
export const signIn = async (page: Page, credentials: Credentials, path = '/login/') => {
  await page.goto(path);
  await fillLogin(page, credentials);
  await page.getByRole('button', { name: 'Login' }).click();
};

/** Signs in through the login form as the seeded demo admin. */
export const signInAsAdmin = (page: Page, path = '/login/') => signIn(page, admin(), path);

/** Signs in and waits for the dashboard's heading. */
export const signInToDashboard = async (page: Page, credentials: Credentials = admin()) => {
  await signIn(page, credentials);
  await page.waitForURL('**/dashboard');
  await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
};

export const storedAuth = (page: Page) =>
  page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? 'null') as unknown, AUTH_KEY);

/** The stored token; null when signed out or when nothing was ever stored. */
export const storedToken = async (page: Page) =>
  ((await storedAuth(page)) as { token?: string | null } | null)?.token ?? null;

/** Origin, path and search of the page's address. */
export const location = (page: Page) => {
  const url = new URL(page.url());
  return { pathname: url.pathname, search: url.search, params: url.searchParams, origin: url.origin };
};

/** The toast cards whose text contains `title`. */
export const toastWith = (page: Page, title: string) => page.locator('[data-toast-id]').filter({ hasText: title });

/** The error text a form field shows (Mantine links it through aria-describedby), or null. */
export const fieldError = async (field: Locator) => {
  const ids = (await field.getAttribute('aria-describedby'))?.split(/\s+/).filter((id) => id.endsWith('-error')) ?? [];
  if (ids.length === 0) return null;
  const texts = await Promise.all(ids.map((id) => field.page().locator(`[id="${id}"]`).textContent()));
  return texts.join(' ');
};

/** Opens the header's account menu and waits for its fade-in to finish. */
export const openAccountMenu = async (page: Page) => {
  await page.getByRole('button', { name: 'Account menu' }).click();
  const menu = page.getByRole('menu');
  await menu.waitFor();
  await expect.poll(() => menu.evaluate((element) => getComputedStyle(element).opacity)).toBe('1');
};

// ---------------------------------------------------------------- network and console

/**
 * Holds back the answers to requests matching `pattern`: the server is asked at once, but the
 * browser gets its answer only after `release()`, so the wait is exactly as long as the test
 * says. `requested` resolves when the first request arrives.
 */
export const holdRequests = async (page: Page, pattern: string) => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let arrived!: (request: Request) => void;
  const requested = new Promise<Request>((resolve) => (arrived = resolve));
  await page.route(pattern, async (route: Route) => {
    arrived(route.request());
    try {
      const response = await route.fetch();
      await released;
      await route.fulfill({ response });
    } catch {
      // the page or its context closed while the answer was held
    }
  });
  return { requested, release };
};

/** Answers every request matching `pattern` with `status` and a JSON body. */
export const answer = (page: Page, pattern: string, status: number, body: unknown = { message: 'Injected failure' }) =>
  page.route(pattern, (route) => route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) }));

/** Console errors and uncaught page errors, collected from now on, across reloads. */
export const watchErrors = (page: Page) => {
  const consoleErrors: string[] = [];
  const pageErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return { consoleErrors, pageErrors };
};

/**
 * Counts the page's document loads from now on: the first visit and every reload. Counted by
 * document requests, since a reload that starts before the 'load' event would hide one.
 */
export const countLoads = (page: Page) => {
  const counter = { loads: 0 };
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) counter.loads += 1;
  });
  return counter;
};

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------- layout

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The element's box once it has stopped moving (toasts and dialogs animate in). */
export const settledBox = async (locator: Locator, timeoutMs = 3000): Promise<Box> => {
  const deadline = Date.now() + timeoutMs;
  let last = await locator.boundingBox();
  while (Date.now() < deadline) {
    await pause(120);
    const next = await locator.boundingBox();
    if (last && next && JSON.stringify(last) === JSON.stringify(next)) return next;
    last = next;
  }
  throw new Error(`the element did not stop moving within ${timeoutMs} ms: ${JSON.stringify(last)}`);
};

/** Saves a screenshot as test-results/<name>.png. */
export const snap = async (page: Page, name: string) => {
  mkdirSync('test-results', { recursive: true });
  await page.screenshot({ path: `test-results/${name}.png` });
};
