/**
 * WCAG 2.2 AA, checked by axe-core in Chromium on every view of the app, in both themes, at
 * desktop and phone width (docs/architecture.md#accessibility). A view is an address plus, for the states an address
 * cannot reach (a failed sign-in, a dialog opened by a button, the error screen), the steps that
 * lead there. Add a page by adding a row to VIEWS.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { THEME_STORAGE_KEY } from '../../src/client/lib/constants';
import { INVOICE_SOURCES } from '../../src/shared/schemas/invoices';
import type { Page as ListPage } from '../../src/shared/types';
import {
  AUTH_KEY,
  LOGIN_API,
  POLL,
  TINY_PNG,
  adminApi,
  clockedTicket,
  requesterTicket,
  adminAttach,
  adminSession,
  baseUrl,
  fillLogin,
  launch,
} from './fixtures';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

const THEMES = ['light', 'dark'] as const;
const WIDTHS = [
  { name: 'desktop', viewport: { width: 1366, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

/** The first record of each kind in the demo data, for the views with a record open. */
interface Ids {
  user: number;
  /** Another active user than the signed-in admin, whom the deactivate dialog names. */
  other: number;
  /** A company that tickets use, which the delete dialog says cannot be deleted. */
  usedCompany: number;
  ticket: number;
  attached: number;
  /** A ticket whose service-level clock runs, for the drawer's clock. */
  clocked: number;
  /** A ticket a customer opened by mail, and their company, which has mail domains. */
  requested: number;
  requestedCompany: number;
  company: number;
  category: number;
  statement: number;
  /** An issued and a void statement of the demo data, for payments and the kept copy. */
  issued: number;
  voided: number;
  line: Record<(typeof INVOICE_SOURCES)[number], number>;
}

interface View {
  name: string;
  /** The address, or a function of the demo records' ids. */
  path: string | ((ids: Ids) => string);
  /** Signed-out views run in a context with no token. */
  signedOut?: boolean;
  /** Steps before the page loads (answers the page's requests will get). */
  before?: (page: Page) => Promise<void>;
  /** Steps after the page has loaded, for states no address reaches. */
  act?: (page: Page) => Promise<void>;
}

const firstId = async (path: string) => {
  const page = await adminApi<ListPage<{ id: number }>>(path);
  const first = page.items[0];
  if (!first) throw new Error(`${path} has no records to open`);
  return first.id;
};

/** An active user other than the signed-in admin. */
const firstOther = async () => {
  const { userId } = await adminSession();
  const users = await adminApi<ListPage<{ id: number }>>('users?page=1&status=active');
  const other = users.items.find((user) => user.id !== userId);
  if (!other) throw new Error('no other active user in the demo data');
  return other.id;
};

/** A ticket holding an image and, on a comment, a text file: the attachments lists with a thumbnail. */
const ticketWithFiles = async () => {
  const ticket = await adminApi<{ id: number }>('tickets', { method: 'POST', body: { title: 'Ticket with attachments' } });
  await adminAttach(ticket.id, TINY_PNG, 'screen.png');
  const comment = await adminApi<{ id: number }>(`tickets/${ticket.id}/comments`, { method: 'POST', body: { body: 'The log is attached' } });
  await adminAttach(ticket.id, new TextEncoder().encode('log line'), 'error-log.txt', comment.id);
  return ticket.id;
};

/** Last month as YYYY-MM (UTC): the demo data has approved lines there in every ledger. */
const lastMonth = () => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
};

/** The first statement in the given status, from the first page of the list. */
const firstStatement = async (status: string) => {
  const page = await adminApi<ListPage<{ id: number; status: string }>>('invoices/gifs/statements?page=1&pageSize=100');
  const found = page.items.find((s) => s.status === status);
  if (!found) throw new Error(`no ${status} statement in the demo data`);
  return found.id;
};

const failSignIn = async (page: Page) => {
  // Answered here: real failed sign-ins count against the address's rate limit.
  await page.route(LOGIN_API, (route) => route.fulfill({ status: 401, contentType: 'application/json', body: '{"message":"Invalid credentials"}' }));
  await fillLogin(page, { email: 'nobody@example.com', password: 'wrong-password' });
  await page.getByRole('button', { name: 'Login' }).click();
  await page.locator('[data-toast-id]').first().waitFor();
  // The field errors of the same failed attempt: the password cleared and left.
  const password = page.getByLabel('Password', { exact: true });
  await password.fill('');
  await password.press('Shift+Tab');
  await page.locator('[aria-invalid="true"]').first().waitFor();
};

/** On a phone the list filters fold behind a button: open them, so the fields are checked too. */
const unfoldFilters = async (page: Page) => {
  await page.locator('h1').first().waitFor();
  const button = page.getByRole('button', { name: /^Filters/ });
  if (await button.isVisible()) {
    await button.click();
    await page.getByRole('button', { name: 'Hide filters' }).waitFor();
  }
};

const VIEWS: View[] = [
  { name: 'login', path: '/login/', signedOut: true },
  {
    name: 'login, empty submit',
    path: '/login/',
    signedOut: true,
    act: async (page) => {
      await page.getByRole('button', { name: 'Login' }).click();
      await page.locator('[aria-invalid="true"]').first().waitFor();
    },
  },
  { name: 'login, failed sign-in', path: '/login/', signedOut: true, act: failSignIn },
  { name: 'not found', path: '/no/such/page' },
  {
    name: 'error screen',
    path: '/users/',
    // The page's code fails to load twice (the app reloads once): the error screen.
    before: async (page) => {
      await page.route('**/assets/UsersPage-*.js', (route) => route.abort());
    },
    act: async (page) => {
      await page.getByRole('heading', { name: 'Something went wrong!', level: 1 }).waitFor();
    },
  },
  { name: 'dashboard', path: '/dashboard/' },
  { name: 'users', path: '/users/' },
  { name: 'user', path: ({ user }) => `/users/?id=${user}` },
  { name: 'user, edit', path: ({ user }) => `/users/?id=${user}&component=edit` },
  { name: 'user, create', path: '/users/?component=create' },
  { name: 'tickets', path: '/tickets/' },
  { name: 'ticket', path: ({ ticket }) => `/tickets/?id=${ticket}` },
  { name: 'ticket with a service-level clock', path: ({ clocked }) => `/tickets/?id=${clocked}` },
  {
    name: 'ticket from a requester, with mailed, internal and requester comments',
    path: ({ requested }) => `/tickets/?id=${requested}`,
    act: async (page) => {
      await page.getByText('By mail from the requester').first().waitFor();
    },
  },
  { name: 'company with mail domains', path: ({ requestedCompany }) => `/lookups/companies/?id=${requestedCompany}` },
  { name: 'tickets due soon, filters unfolded on a phone', path: '/tickets/?sla=due_soon&sort=slaDueAt', act: unfoldFilters },
  {
    name: 'ticket with attachments',
    path: ({ attached }) => `/tickets/?id=${attached}`,
    act: async (page) => {
      const files = page.getByRole('list', { name: 'Files', exact: true });
      await files.getByRole('img', { name: 'screen.png' }).waitFor();
      await files.scrollIntoViewIfNeeded();
    },
  },
  {
    name: 'ticket, create',
    path: '/tickets/',
    act: async (page) => {
      await page.getByRole('button', { name: 'New ticket' }).click();
      await page.getByRole('dialog', { name: 'New ticket' }).waitFor();
    },
  },
  {
    name: 'ticket, correct a time entry',
    path: ({ ticket }) => `/tickets/?id=${ticket}`,
    act: async (page) => {
      // An entry of the admin's own, so the Edit button is there whatever the demo ticket holds.
      const drawer = page.getByRole('dialog').first();
      await drawer.getByLabel('Minutes').fill('5');
      await drawer.getByRole('button', { name: 'Log time' }).click();
      await drawer.getByRole('button', { name: /^Edit time entry of/ }).first().click();
      await page.getByRole('dialog', { name: /^Edit time entry of/ }).getByLabel('Minutes').waitFor();
    },
  },
  { name: 'ticket categories', path: '/lookups/ticket-categories/' },
  { name: 'ticket category', path: ({ category }) => `/lookups/ticket-categories/?id=${category}` },
  { name: 'companies', path: '/lookups/companies/' },
  { name: 'company', path: ({ company }) => `/lookups/companies/?id=${company}` },
  { name: 'calendars', path: '/lookups/calendars/' },
  {
    name: 'calendars, new calendar dialog with hours',
    path: '/lookups/calendars/',
    act: async (page) => {
      await page.getByRole('button', { name: 'New calendar' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'New calendar' });
      await dialog.getByRole('button', { name: 'Add hours' }).click();
      await dialog.getByLabel('From, hours 1').waitFor();
    },
  },
  { name: 'sla policies', path: '/lookups/sla-policies/' },
  {
    name: 'sla policies, new policy dialog',
    path: '/lookups/sla-policies/',
    act: async (page) => {
      await page.getByRole('button', { name: 'New policy' }).first().click();
      await page.getByRole('dialog', { name: 'New policy' }).getByLabel('Resolution target (business minutes)').waitFor();
    },
  },
  { name: 'autofi', path: '/invoices/autofi/' },
  {
    name: 'autofi, new line dialog',
    path: '/invoices/autofi/',
    act: async (page) => {
      await page.getByRole('button', { name: 'New line', exact: true }).click();
      await page.getByRole('dialog', { name: 'New line' }).getByLabel('Description').waitFor();
    },
  },
  {
    name: 'autofi, import preview with a problem',
    path: '/invoices/autofi/',
    act: async (page) => {
      await page.getByRole('button', { name: 'Import CSV' }).click();
      const dialog = page.getByRole('dialog', { name: 'Import lines into Autofi' });
      const csv = `period,company,description,quantity,unit_price,reference\r\n${lastMonth()},No Such Company,=SUM(A1),1.5,2.505,\r\n`;
      await dialog.locator('input[type="file"]').setInputFiles({ name: 'vendor.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await dialog.getByTestId('import-summary').waitFor();
    },
  },
  {
    name: 'autofi, undo an import',
    path: '/invoices/autofi/',
    act: async (page) => {
      // A one-line import of a month far ahead (no reference, so each run imports it anew), then its Undo.
      const company = (await adminApi<ListPage<{ name: string }>>('companies?pageSize=1')).items[0]?.name ?? '';
      await page.getByRole('button', { name: 'Import CSV' }).click();
      const dialog = page.getByRole('dialog', { name: 'Import lines into Autofi' });
      const csv = `period,company,description,quantity,unit_price\r\n2099-01,"${company}",Axe check,1,1.00\r\n`;
      await dialog.locator('input[type="file"]').setInputFiles({ name: 'axe.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await dialog.getByRole('button', { name: 'Import 1 line' }).click();
      await dialog.getByRole('button', { name: /^Undo the import of axe\.csv/ }).first().click();
      await page.getByRole('dialog', { name: 'Undo this import?' }).waitFor();
    },
  },
  { name: 'autofi line', path: ({ line }) => `/invoices/autofi/?lineId=${line.autofi}` },
  { name: 'autofi, a month with its invoice section', path: `/invoices/autofi/?period=${lastMonth()}` },
  {
    name: '3dtracking, close month dialog',
    path: `/invoices/3dtracking/?period=${lastMonth()}`,
    act: async (page) => {
      await page.getByTestId('month-invoice').getByRole('button', { name: 'Close month' }).click();
      await page.getByRole('dialog', { name: 'Close month' }).waitFor();
    },
  },
  { name: '3dtracking', path: '/invoices/3dtracking/' },
  { name: '3dtracking line', path: ({ line }) => `/invoices/3dtracking/?lineId=${line['3dtracking']}` },
  { name: 'gifs', path: '/invoices/gifs' },
  { name: 'gifs statements', path: '/invoices/gifs/statement' },
  { name: 'gifs statement', path: ({ statement }) => `/invoices/gifs/statement?statementId=${statement}` },
  { name: 'gifs statements, overdue only', path: '/invoices/gifs/statement?overdue=true' },
  { name: 'autofi invoices, partially paid', path: '/invoices/gifs/statement?ledger=autofi&state=partial' },
  { name: 'gifs statement, void', path: ({ voided }) => `/invoices/gifs/statement?statementId=${voided}` },
  {
    name: 'gifs statement, record payment',
    path: ({ issued }) => `/invoices/gifs/statement?statementId=${issued}`,
    act: async (page) => {
      await page.getByRole('button', { name: 'Record payment' }).click();
      await page.getByRole('textbox', { name: 'Reference' }).waitFor();
    },
  },
  { name: 'gifs sla', path: '/invoices/gifs/sla' },
  { name: 'gifs sla line', path: ({ line }) => `/invoices/gifs/sla?lineId=${line['gifs-sla']}` },
  { name: 'gifs azure', path: '/invoices/gifs/azure' },
  { name: 'gifs azure line', path: ({ line }) => `/invoices/gifs/azure?lineId=${line['gifs-azure']}` },
  { name: 'timesheet', path: '/reports/timesheet/' },
  { name: 'ticket report', path: '/reports/ticket-report/' },
  { name: 'service levels report', path: '/reports/sla/' },
  { name: 'settings, profile', path: '/dashboard/?settings=true&tab=profile' },
  { name: 'settings, security', path: '/dashboard/?settings=true&tab=security' },
  { name: 'settings, database', path: '/dashboard/?settings=true&tab=database' },
  { name: 'settings, API tokens', path: '/dashboard/?settings=true&tab=api-tokens' },
  { name: 'audit log', path: '/audit/' },
  { name: 'audit log, filtered, filters unfolded on a phone', path: '/audit/?entity=ticket&action=create', act: unfoldFilters },
  {
    name: 'audit log, an entry open',
    path: '/audit/?entity=ticket&action=create',
    act: async (page) => {
      const rows = page.getByRole('table', { name: 'Audit log', exact: true }).locator('tbody tr:not([data-testid="skeleton-row"])');
      await rows.first().click();
      await page.getByRole('dialog').getByText('Request id').waitFor();
    },
  },
  { name: 'autofi, filters unfolded on a phone', path: '/invoices/autofi/?status=approved', act: unfoldFilters },
  { name: 'gifs azure, filters unfolded on a phone', path: '/invoices/gifs/azure?status=approved', act: unfoldFilters },
  {
    name: 'user, deactivate dialog',
    path: ({ other }) => `/users/?id=${other}`,
    act: async (page) => {
      await page.getByRole('button', { name: 'Deactivate' }).click();
      await page.getByRole('dialog', { name: 'Deactivate user?' }).waitFor();
    },
  },
  {
    name: 'company in use, delete dialog',
    path: ({ usedCompany }) => `/lookups/companies/?id=${usedCompany}`,
    act: async (page) => {
      await page.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('dialog', { name: 'Delete company?' }).getByText('cannot be deleted').waitFor();
    },
  },
];

/** Anything still loading: a busy region or placeholder, skeleton rows, a spinner (labelled), the route progress bar. */
const loading = (page: Page) =>
  page
    .locator('[aria-busy="true"]')
    .or(page.getByTestId('skeleton-row'))
    .or(page.getByLabel(/^(Loading|Searching)\b/))
    .or(page.getByRole('progressbar'));

/** Waits until the view's h1 shows and nothing on the page is loading any more. */
const settled = async (page: Page) => {
  await page.locator('h1').first().waitFor();
  await expect.poll(() => loading(page).count(), POLL).toBe(0);
};

const describeViolations = (violations: Awaited<ReturnType<AxeBuilder['analyze']>>['violations']) =>
  violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id} (${violation.impact ?? 'no impact'}): ${node.target.join(' ')} ${node.html.slice(0, 160)} — ${node.failureSummary?.split('\n')[1]?.trim() ?? ''}`),
  );

// axe reads every node of the page; on a busy two-core machine one run can take several seconds.
vi.setConfig({ testTimeout: 60_000 });

let browser: Browser | undefined;
let ids: Ids;

beforeAll(async () => {
  browser = await launch();
  const lines = await Promise.all(INVOICE_SOURCES.map(async (source) => [source, await firstId(`invoices/${source}/lines?page=1`)] as const));
  ids = {
    user: (await adminSession()).userId,
    other: await firstOther(),
    usedCompany: (await adminApi<ListPage<{ companyId: number | null }>>('tickets?page=1&pageSize=50')).items.find((t) => t.companyId)?.companyId ?? 0,
    ticket: await firstId('tickets?page=1'),
    attached: await ticketWithFiles(),
    clocked: (await clockedTicket()).ticket.id,
    ...(await requesterTicket().then(({ ticket, company }) => ({ requested: ticket.id, requestedCompany: company.id }))),
    company: await firstId('companies?page=1'),
    category: await firstId('ticket-categories?page=1'),
    statement: await firstId('invoices/gifs/statements?page=1'),
    issued: await firstStatement('issued'),
    voided: await firstStatement('void'),
    line: Object.fromEntries(lines) as Ids['line'],
  };
});

afterAll(async () => {
  await browser?.close();
});

/** One signed-in and one signed-out tab for a theme and a window size, reused by every view. */
const tabsFor = (theme: (typeof THEMES)[number], viewport: { width: number; height: number }) => {
  const tabs = new Map<boolean, Promise<Page>>();
  const contexts: BrowserContext[] = [];

  const open = async (signedIn: boolean) => {
    if (!browser) throw new Error('the browser is not running yet');
    // Reduced motion: dialogs and drawers are checked as they finally look, not halfway through a fade.
    const context = await browser.newContext({ viewport, baseURL: baseUrl(), reducedMotion: 'reduce' });
    contexts.push(context);
    context.setDefaultTimeout(15_000);
    const session = signedIn ? await adminSession() : undefined;
    await context.addInitScript(
      ({ key, stored, scheme, schemeKey }) => {
        localStorage.setItem(schemeKey, scheme);
        if (stored && !sessionStorage.getItem('e2e-signed-in')) {
          sessionStorage.setItem('e2e-signed-in', '1');
          localStorage.setItem(key, stored);
        }
      },
      {
        key: AUTH_KEY,
        schemeKey: THEME_STORAGE_KEY,
        scheme: theme,
        stored: session
          ? JSON.stringify({ token: session.token, user: { id: session.userId, firstName: session.firstName, surname: session.surname, email: session.email } })
          : null,
      },
    );
    return context.newPage();
  };

  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
  });

  /** The view's tab, on the view with its data loaded. */
  return async (view: View) => {
    const signedIn = !view.signedOut;
    if (!tabs.has(signedIn)) tabs.set(signedIn, open(signedIn));
    const page = await (tabs.get(signedIn) as Promise<Page>);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await view.before?.(page);
    await page.goto(typeof view.path === 'function' ? view.path(ids) : view.path);
    await view.act?.(page);
    await settled(page);
    return page;
  };
};

describe.each(THEMES.flatMap((theme) => WIDTHS.map((width) => ({ theme, ...width }))))('axe, $theme theme, $name', ({ theme, viewport }) => {
  const show = tabsFor(theme, viewport);

  it.each(VIEWS)('$name has no violations', async (view) => {
    const page = await show(view);
    // Only violations are read: axe then skips building details for passing nodes, which is most of its time.
    const { violations } = await new AxeBuilder({ page }).withTags(TAGS).options({ resultTypes: ['violations'] }).analyze();
    expect(describeViolations(violations)).toEqual([]);
  });
});

describe('at 200% zoom (640 CSS px wide)', () => {
  const show = tabsFor('light', { width: 640, height: 800 });

  it.each(VIEWS)('$name does not scroll sideways', async (view) => {
    const page = await show(view);
    // Wide tables scroll inside their own box; the page itself never does.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
