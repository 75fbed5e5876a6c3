/**
 * The one fixture module of the browser tests: the Chromium lifecycle (a browser per file, a
 * fresh context per page, signed in or not), the API from Node, sign-in helpers, the page parts
 * the tests read (by role and label, never by a UI library's class names), network and console
 * watchers, and layout checks.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Download,
  type Locator,
  type Page,
  type Request,
  type Response,
  type Route,
} from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject, vi } from 'vitest';
import type { AppPath } from '../../src/client/app/routes';
import type { LoginResponse, Role, Ticket, User } from '../../src/shared/types';

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

/** Attaches a file to a ticket from Node, as the admin, the way the app's upload sends it. */
export const adminAttach = async (ticketId: number, bytes: Uint8Array<ArrayBuffer>, name: string, commentId?: number) => {
  const form = new FormData();
  form.set('file', new Blob([bytes]), name);
  if (commentId !== undefined) form.set('commentId', String(commentId));
  const response = await fetch(`${baseUrl()}/api/v1/tickets/${ticketId}/attachments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${(await adminSession()).token}` },
    body: form,
  });
  if (response.status !== 201) throw new Error(`upload answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as { id: number; name: string };
};

/** A 2×2 red PNG: a real image the browser decodes, for thumbnails. */
export const TINY_PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
);

/** POST auth/login as the given account. */
export const apiLogin = ({ email, password }: Credentials) =>
  api<LoginResponse>('auth/login', { method: 'POST', body: { username: email, password, audience: 'staff-app' } });

/** Calls the API as the holder of `token`. */
export const apiAs =
  (token: string) =>
  <T = unknown>(path: string, options: { method?: string; body?: unknown } = {}) =>
    api<T>(path, { ...options, token });

/**
 * Starts the page signed in, as the login form would leave it, for tests about what comes after
 * sign-in (the auth tests go through the form itself). The session is written once per tab, so a
 * logout or a 401 later in the test is not undone by the next reload.
 */
export const startSignedIn = async (page: Page, credentials: Credentials = admin()) => {
  const session = credentials.email === ADMIN_EMAIL ? await adminSession() : await sessionFor(credentials);
  const stored = JSON.stringify({
    token: session.token,
    user: { id: session.userId, firstName: session.firstName, surname: session.surname, email: session.email, role: session.role, timeZone: session.timeZone },
  });
  await page.addInitScript(
    ({ origin, key, value }) => {
      if (window.location.origin !== origin || sessionStorage.getItem('e2e-signed-in')) return;
      sessionStorage.setItem('e2e-signed-in', '1');
      localStorage.setItem(key, value);
    },
    { origin: new URL(baseUrl()).origin, key: AUTH_KEY, value: stored },
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
  const tag = uniqueTag();
  const fields = { firstName: `Fay${tag}`, surname: 'Tester', email: `e2e-${tag}@example.com`, password: `pw-${tag}-secret` };
  const { id } = await adminApi<{ id: number }>('users', { method: 'POST', body: fields });
  return { ...fields, id };
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
  const box = await settled(locator, timeoutMs);
  if (!box) throw new Error('the element has no box: it is not shown');
  return box;
};

/** Saves a screenshot as test-results/<name>.png (the name the browser-level tests use). */
export const snap = (page: Page, name: string) => screenshot(page, name);

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

/**
 * A company of its own with a service-level policy around the clock (first response in an hour,
 * resolution in four), and a ticket for it made now, so its clock is running.
 */
export const clockedTicket = async (fields: Record<string, unknown> = {}) => {
  const tag = uniqueTag();
  const company = await adminApi<{ id: number; name: string }>('companies', { method: 'POST', body: { name: `Clocked Co ${tag}` } });
  const calendar = await adminApi<{ id: number }>('calendars', { method: 'POST', body: { name: `Around the clock ${tag}`, timeZone: 'UTC' } });
  const policy = await adminApi<{ id: number; name: string }>('sla-policies', {
    method: 'POST',
    body: { name: `Gold ${tag}`, position: 5, companyId: company.id, calendarId: calendar.id, firstResponseMinutes: 60, resolutionMinutes: 240 },
  });
  const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Clocked ticket ${tag}`, companyId: company.id, ...fields } });
  return { company, policy, ticket };
};

/**
 * A raw mail delivered to the app's email() handler through Miniflare's route under `npm start`,
 * as Email Routing would (docs/operations.md#mail). The message needs Message-ID and Date headers.
 */
export const mailToApp = (from: string, to: string, headers: string, body: string) =>
  fetch(`${baseUrl()}/cdn-cgi/handler/email?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`, {
    method: 'POST',
    body: `${headers}\nMessage-ID: <${uniqueTag()}@mail.test>\nDate: ${new Date().toUTCString()}\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n${body}\n`.replace(/\r?\n/g, '\r\n'),
  });

/**
 * A ticket a customer opened by mail from their company's domain, with a reply mailed to them, an
 * internal note, and their answer: every kind of comment a requester's ticket shows.
 */
export const requesterTicket = async () => {
  const tag = uniqueTag();
  const domain = `cust${tag}.test`;
  const from = `pat@${domain}`;
  const company = await adminApi<{ id: number; name: string }>('companies', { method: 'POST', body: { name: `Customer ${tag}`, emailDomains: [domain] } });
  const subject = `Scanner offline ${tag}`;
  const opened = await mailToApp(from, 'support@localhost.test', `From: Pat Customer <${from}>\nTo: support@localhost.test\nSubject: ${subject}`, 'The scanner on floor 2 is offline.');
  if (opened.status >= 300) throw new Error(`mail in answered ${opened.status}: ${await opened.text()}`);
  const ticket = (await adminApi<{ items: Ticket[] }>(`tickets?q=${encodeURIComponent(`"${subject}"`)}`)).items[0];
  if (!ticket) throw new Error('the mail made no ticket');
  await adminApi(`tickets/${ticket.id}/comments`, { method: 'POST', body: { body: 'A technician is on the way.', sendToRequester: true } });
  await adminApi(`tickets/${ticket.id}/comments`, { method: 'POST', body: { body: 'Spare scanner is in the store room.' } });
  // The reply's address is in the mail log once the mail is sent (polled by hand: this runs in a beforeAll too).
  let replyTo = '';
  for (let tries = 0; !replyTo.startsWith('ticket+'); tries++) {
    if (tries === 60) throw new Error(`no reply mail to ${from} in the mail log`);
    if (tries) await new Promise((resolve) => setTimeout(resolve, 250));
    replyTo = (await adminApi<{ items: { to: string; replyTo: string | null }[] }>('settings/mail?pageSize=100')).items.find((mail) => mail.to === from)?.replyTo ?? '';
  }
  const answered = await mailToApp(from, replyTo, `From: Pat Customer <${from}>\nTo: ${replyTo}\nSubject: Re: [#${ticket.id}] ${subject}`, 'Thanks, it works again.');
  if (answered.status >= 300) throw new Error(`the answer answered ${answered.status}: ${await answered.text()}`);
  return { company, ticket, from };
};

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
 * One Chromium per test file and a fresh context per `open()`, closed after each test even when
 * it fails, so tests never share cookies, storage or routes. Pages start signed in as the admin
 * (or as `as`; `signedIn: false` for none), the token written to local storage once per tab as the
 * login form would leave it, so each test starts on the page it is about. A failed test leaves a
 * screenshot of each of its pages and names the requests still unanswered.
 */
export const browserPerFile = ({ signedIn: signedInByDefault = true }: { signedIn?: boolean } = {}) => {
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
    async open(
      viewport: Viewport = DESKTOP,
      { signedIn = signedInByDefault, as, context: options }: { signedIn?: boolean; as?: Credentials; context?: BrowserContextOptions } = {},
    ) {
      if (!browser) throw new Error('browserPerFile(): the browser is not running yet');
      const { context, page } = await newPage(browser, viewport, { acceptDownloads: true, ...options });
      contexts.push(context);
      context.on('request', (request) => pending.set(request, Date.now()));
      context.on('requestfinished', (request) => pending.delete(request));
      context.on('requestfailed', (request) => pending.delete(request));
      // Inside the test timeout, so a missing element fails with its own message.
      context.setDefaultTimeout(15_000);
      context.setDefaultNavigationTimeout(30_000);
      if (as || signedIn) await startSignedIn(page, as ?? admin());
      return page;
    },
  };
};

/** The same browser per file, with pages that start signed out unless given `as`. */
export const browserForFile = () => browserPerFile({ signedIn: false });

// ---------------------------------------------------------------- page parts

/** The page's h1 once it shows `name`. */
export const heading = async (page: Page, name: string) => {
  const h1 = page.getByRole('heading', { level: 1, name, exact: true });
  await h1.waitFor();
  return h1;
};

/**
 * The record drawer and a modal over it, by role: both are dialogs, and a modal opens over the
 * drawer (later in the page), so the drawer is the first dialog and the modal the last.
 */
export const drawer = (page: Page) => page.getByRole('dialog').first();
export const modal = (page: Page) => page.getByRole('dialog').last();

/** A statement's status as its view shows it (the status badge's text). */
export const statementStatus = (view: Locator) => view.getByText(/^(Open|Issued|Partially paid|Paid|Void)$/).first();

/** The title of the open drawer (the heading that names the dialog). */
export const drawerTitle = (page: Page) => drawer(page).getByRole('heading').first();

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
export const settled = async (locator: Locator, timeout: number = POLL.timeout) => {
  let last = '';
  await expect
    .poll(async () => {
      const box = JSON.stringify(await locator.boundingBox());
      const same = box === last;
      last = box;
      return same;
    }, { timeout, interval: 150 })
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

/** A `YYYY-MM-DD` day as the pages write it, in the page's locale ("23 Nov 2026" in en-GB). */
export const dayInPage = (page: Page, day: string) =>
  page.evaluate((d) => new Date(`${d}T00:00:00Z`).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }), day);

/** A range of days as the reports' descriptions write it: "23 Nov 2026 to 29 Nov 2026". */
export const dayRangeInPage = async (page: Page, from: string, to: string) => `${await dayInPage(page, from)} to ${await dayInPage(page, to)}`;

/**
 * Every signed-in page: the address a person opens it at and the h1 it starts with. Keyed by the
 * route table's own addresses, so a page added to the app and not here fails the typecheck.
 */
const SIGNED_IN: Record<Exclude<AppPath, '/login'>, { path: string; heading: string }> = {
  '/dashboard': { path: '/dashboard/', heading: 'Dashboard' },
  '/users': { path: '/users/', heading: 'Users' },
  '/tickets': { path: '/tickets/', heading: 'Tickets' },
  '/lookups/ticket-categories': { path: '/lookups/ticket-categories/', heading: 'Ticket categories' },
  '/lookups/companies': { path: '/lookups/companies/', heading: 'Companies' },
  '/lookups/calendars': { path: '/lookups/calendars/', heading: 'Calendars' },
  '/lookups/sla-policies': { path: '/lookups/sla-policies/', heading: 'SLA policies' },
  '/invoices/autofi': { path: '/invoices/autofi/', heading: 'Autofi' },
  '/invoices/3dtracking': { path: '/invoices/3dtracking/', heading: '3D Tracking' },
  '/invoices/gifs': { path: '/invoices/gifs', heading: 'GIFS' },
  '/invoices/gifs/statement': { path: '/invoices/gifs/statement', heading: 'GIFS statements' },
  '/invoices/gifs/sla': { path: '/invoices/gifs/sla', heading: 'GIFS SLA' },
  '/invoices/gifs/azure': { path: '/invoices/gifs/azure', heading: 'GIFS Azure' },
  '/reports/timesheet': { path: '/reports/timesheet/', heading: 'Timesheet' },
  '/reports/ticket-report': { path: '/reports/ticket-report/', heading: 'Ticket report' },
  '/reports/sla': { path: '/reports/sla/', heading: 'Service levels' },
  '/audit': { path: '/audit/', heading: 'Audit log' },
  '/webhooks': { path: '/webhooks/', heading: 'Webhooks' },
};

export const SIGNED_IN_PAGES = Object.values(SIGNED_IN);

/**
 * Resolves once the page's live socket has said hello: call before the navigation that opens it.
 * A change published before then is not sent to the page, so a test that waits for one waits
 * for this first.
 */
export const liveHello = async (page: Page) => {
  const socket = await page.waitForEvent('websocket', { predicate: (ws) => ws.url().includes('/api/v1/live') });
  await socket.waitForEvent('framereceived', { predicate: (frame) => String(frame.payload).includes('"hello"') });
};
