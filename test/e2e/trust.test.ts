import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { AuditEntry, Company, InvoiceLine, LinePage, Page as ListPage, Ticket } from '../../src/shared/types';
import {
  AUTH_KEY,
  type Credentials,
  PHONE,
  POLL,
  adminApi,
  adminSession,
  api,
  apiLogin,
  apiResponse,
  browserPerFile,
  choose,
  csvLines,
  downloadText,
  drawer,
  drawerTitle,
  expectFullWidthDrawer,
  expectText,
  heading,
  makeAccount,
  screenshot,
  storedToken,
  tableLoaded,
  tableRows,
  textOf,
  thisMonthUtc,
  toast,
  uniqueTag,
} from './fixtures';

const chrome = browserPerFile();

const NO_ACCESS = 'You do not have access to this page';
/** A common laptop screen, the desktop size the screenshots are taken at. */
const LAPTOP = { width: 1366, height: 768 };

/** The History section of the open drawer (a region named by its heading). */
const history = (page: Page) => drawer(page).getByRole('region', { name: 'History' });

/** The History entries, newest first, once the section has loaded. */
const historyEntries = (page: Page) => history(page).getByRole('list', { name: 'Changes, newest first' }).locator(':scope > li');

/** Requests for the audit log, by their search values, to prove which the page asked for. */
const auditRequests = (page: Page) => {
  const seen: URLSearchParams[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/v1/audit') seen.push(url.searchParams);
  });
  return seen;
};

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

const scrollIntoView = (locator: Locator) => locator.evaluate((element) => element.scrollIntoView({ block: 'start' }));

describe('roles in the pages', () => {
  it('a staff user sees no admin or billing actions, yet reads every record and its History', async () => {
    const staff = await makeAccount('staff');
    const company = (await adminApi<ListPage<Company>>('companies?pageSize=1')).items[0];
    const line = (await adminApi<LinePage>('invoices/autofi/lines?status=draft&pageSize=1')).items[0];
    expect(company && line).toBeTruthy();
    const page = await chrome.open(undefined, { as: staff });

    await page.goto('/users/');
    await heading(page, 'Users');
    await tableLoaded(page, 'Users');
    await mainNav(page).getByRole('link', { name: 'Tickets' }).waitFor();
    expect(await mainNav(page).getByRole('link', { name: 'Audit log' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'New user' }).count()).toBe(0);

    // Their own record: its facts and History, with no way to edit or deactivate it.
    await page.goto(`/users/?id=${staff.id}`);
    await expectText(drawerTitle(page), `${staff.firstName} ${staff.surname}`);
    await history(page).waitFor();
    await expect.poll(() => historyEntries(page).count(), POLL).toBeGreaterThan(0);
    for (const name of ['Edit', 'Deactivate', 'Activate', 'Reset password', 'Save changes']) {
      expect(await drawer(page).getByRole('button', { name }).count(), name).toBe(0);
    }
    // An address asking for a form shows the record instead.
    await page.goto(`/users/?id=${staff.id}&component=edit`);
    await history(page).waitFor();
    await drawer(page).getByText('Role', { exact: true }).waitFor();
    expect(await drawer(page).getByLabel('First Name').count()).toBe(0);
    await page.goto('/users/?component=create');
    await tableLoaded(page, 'Users');
    expect(await drawer(page).count()).toBe(0);

    await page.goto(`/lookups/companies/?id=${company?.id}`);
    await heading(page, 'Companies');
    await history(page).waitFor();
    await drawer(page).getByText(company?.name ?? '', { exact: true }).first().waitFor();
    expect(await page.getByRole('button', { name: 'New company' }).count()).toBe(0);
    expect(await drawer(page).getByRole('button', { name: 'Save changes' }).count()).toBe(0);
    expect(await drawer(page).getByRole('button', { name: 'Delete' }).count()).toBe(0);
    expect(await drawer(page).getByRole('textbox', { name: 'Name' }).count()).toBe(0);

    await page.goto('/lookups/ticket-categories/');
    await heading(page, 'Ticket categories');
    await tableLoaded(page, 'Ticket categories');
    expect(await page.getByRole('button', { name: 'New category' }).count()).toBe(0);

    await page.goto(`/invoices/autofi/?lineId=${line?.id}`);
    await heading(page, 'Autofi');
    await history(page).waitFor();
    await drawer(page).getByText('Invoice lines are changed by the billing team; you can read this one.').waitFor();
    expect(await drawer(page).getByRole('button', { name: 'Save line' }).count()).toBe(0);
    expect(await drawer(page).getByLabel('Quantity').count()).toBe(0);

    await page.goto('/invoices/gifs/statement');
    await heading(page, 'GIFS statements');
    await tableLoaded(page, 'Statements');
    expect(await page.getByRole('button', { name: 'Generate statement' }).count()).toBe(0);

    // Everyone works tickets.
    await page.goto('/tickets/');
    await heading(page, 'Tickets');
    await page.getByRole('button', { name: 'New ticket' }).waitFor();
  });

  it.each([
    ['staff', 'desktop', LAPTOP],
    ['billing', 'phone', PHONE],
  ] as const)('a %s user gets the access screen on /audit/, inside the shell (%s)', async (role, name, viewport) => {
    const person = await makeAccount(role);
    const page = await chrome.open(viewport, { as: person });
    const asked = auditRequests(page);
    await page.goto('/audit/');
    await heading(page, NO_ACCESS);
    await page.getByText('This page is open to administrators.', { exact: false }).waitFor();
    await page.getByRole('link', { name: 'Go to the dashboard' }).waitFor();
    // The shell stays: header and navigation (behind the burger on a phone).
    await page.getByRole('link', { name: 'Staff App' }).waitFor();
    expect(await page.getByText('Something went wrong!').count()).toBe(0);
    expect(await page.getByRole('table', { name: 'Audit log' }).count()).toBe(0);
    expect(asked).toHaveLength(0);
    await screenshot(page, `trust-no-access-${name}`);
    // And the provider refuses the whole log all the same.
    const { token } = (await apiLogin(person)).body;
    expect((await api('audit', { token })).status).toBe(403);
  });
});

describe('History in record drawers', () => {
  const makeTicket = () =>
    adminApi<Ticket>('tickets', { method: 'POST', body: { title: `History ticket ${uniqueTag()}`, status: 'open', priority: 'normal' } });

  it.each([
    ['desktop', LAPTOP],
    ['phone', PHONE],
  ] as const)("an admin edits a ticket and the drawer's History shows who changed what (%s)", async (name, viewport) => {
    const ticket = await makeTicket();
    const admin = await adminSession();
    const page = await chrome.open(viewport);
    await page.goto(`/tickets/?id=${ticket.id}`);
    await heading(page, 'Tickets');
    const panel = drawer(page);
    await expect.poll(() => historyEntries(page).count(), POLL).toBe(1);
    expect(await textOf(historyEntries(page).first())).toContain(`${admin.firstName} ${admin.surname} · Created`);

    await panel.getByRole('button', { name: /^Edit ticket #/ }).click();
    await choose(page, panel.getByRole('combobox', { name: 'Status' }), 'In progress');
    await choose(page, panel.getByRole('combobox', { name: 'Priority' }), 'Urgent');
    const saved = apiResponse(page, new RegExp(`^tickets/${ticket.id}$`), 'PATCH');
    const reread = apiResponse(page, new RegExp(`^audit\\?.*entityId=${ticket.id}`));
    await panel.getByRole('button', { name: 'Save ticket' }).click();
    expect((await saved).status()).toBe(200);
    await toast(page, 'success', 'Ticket saved').waitFor();
    expect((await reread).status()).toBe(200);

    await expect.poll(() => historyEntries(page).count(), POLL).toBe(2);
    const newest = historyEntries(page).first();
    expect(await textOf(newest)).toContain(`${admin.firstName} ${admin.surname} · Changed`);
    const changes = newest.getByRole('listitem');
    expect(await changes.allTextContents()).toEqual(['Status: Open → changed to In progress', 'Priority: Normal → changed to Urgent']);
    await newest.locator('time').waitFor();

    const [entry] = (await adminApi<ListPage<AuditEntry>>(`audit?entity=ticket&entityId=${ticket.id}`)).items;
    expect(entry).toMatchObject({ action: 'update', actorId: admin.userId, changes: { status: ['open', 'in_progress'], priority: ['normal', 'urgent'] } });

    await scrollIntoView(history(page));
    await screenshot(page, `trust-ticket-history-${name}`);
  });

  it('a user drawer shows an admin password reset as "Password: changed", with no values', async () => {
    const person = await makeAccount('staff');
    const page = await chrome.open();
    await page.goto(`/users/?id=${person.id}&component=edit`);
    const panel = drawer(page);
    await panel.getByRole('combobox', { name: 'Role' }).waitFor();
    expect(await panel.getByRole('combobox', { name: 'Role' }).inputValue()).toBe('Staff');
    await panel.getByLabel('New password').fill(`reset-${uniqueTag()}-secret`);
    await panel.getByRole('button', { name: 'Reset password' }).click();
    await toast(page, 'success', 'Password reset').waitFor();
    await expect.poll(() => panel.getByLabel('New password').inputValue(), POLL).toBe('');
    await expect.poll(() => historyEntries(page).count(), POLL).toBe(2);
    expect(await historyEntries(page).first().getByRole('listitem').allTextContents()).toEqual(['Password: changed']);
    // The old password no longer signs in.
    expect((await apiLogin(person)).status).toBe(401);
  });

  it('an admin changes a role in the edit form; the record and its History show it', async () => {
    const person = await makeAccount('staff');
    const page = await chrome.open();
    await page.goto(`/users/?id=${person.id}&component=edit`);
    const panel = drawer(page);
    await choose(page, panel.getByRole('combobox', { name: 'Role' }), 'Billing');
    await panel.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'success', 'User updated').waitFor();
    await page.waitForURL((url) => url.searchParams.get('component') === 'details');
    await expect.poll(() => historyEntries(page).count(), POLL).toBe(2);
    expect(await historyEntries(page).first().getByRole('listitem').allTextContents()).toEqual(['Role: Staff → changed to Billing']);
    expect((await adminApi<{ role: string }>(`users/${person.id}`)).role).toBe('billing');
    await drawer(page).getByText('Billing', { exact: true }).first().waitFor();
  });
});

describe('billing', () => {
  it('a billing user edits an invoice line, and its History names them', async () => {
    const billing = await makeAccount('billing', 'Bea');
    const line = await adminApi<InvoiceLine>('invoices/autofi/lines', {
      method: 'POST',
      body: { period: thisMonthUtc(), description: `Billing edit ${uniqueTag()}`, quantity: 3, unitPriceCents: 1500, reference: 'E2E-BILL', status: 'draft' },
    });
    const page = await chrome.open(undefined, { as: billing });
    await page.goto(`/invoices/autofi/?lineId=${line.id}`);
    await heading(page, 'Autofi');
    const panel = drawer(page);
    await panel.getByLabel('Quantity').fill('5');
    const saved = apiResponse(page, new RegExp(`^invoices/lines/${line.id}$`), 'PATCH');
    await panel.getByRole('button', { name: 'Save line' }).click();
    expect((await saved).status()).toBe(200);
    await toast(page, 'success', 'Line saved').waitFor();
    expect((await adminApi<InvoiceLine>(`invoices/lines/${line.id}`)).quantity).toBe(5);

    await expect.poll(() => historyEntries(page).count(), POLL).toBe(2);
    const newest = historyEntries(page).first();
    expect(await textOf(newest)).toContain(`${billing.firstName} ${billing.surname} · Changed`);
    const changes = await newest.getByRole('listitem').allTextContents();
    expect(changes).toContain('Quantity: 3 → changed to 5');
    // Billing may bill, but users and the audit log stay the admin's.
    await page.goto('/invoices/gifs/statement');
    await page.getByRole('button', { name: 'Generate statement' }).waitFor();
    await page.goto('/users/');
    await tableLoaded(page, 'Users');
    expect(await page.getByRole('button', { name: 'New user' }).count()).toBe(0);
  });
});

describe('password change', () => {
  it('keeps the person signed in with the fresh token, and ends the old one', async () => {
    const person: Credentials & { id: number } = await makeAccount('staff', 'Pat');
    const page = await chrome.open(undefined, { as: person });
    await page.goto('/dashboard?settings=true&tab=security');
    const dialog = page.getByRole('dialog', { name: 'Settings Security' });
    await dialog.getByRole('heading', { name: 'Change Password' }).waitFor();
    const before = await storedToken(page);
    expect(before).toBeTruthy();

    const password = `${person.password}-new`;
    await dialog.getByLabel('New Password', { exact: true }).fill(password);
    await dialog.getByLabel('Confirm Password', { exact: true }).fill(password);
    const changed = apiResponse(page, /^users\/change-password$/, 'PATCH');
    await dialog.getByRole('button', { name: 'Update Password' }).click();
    const answer = (await (await changed).json()) as { message: string; token: string };
    await toast(page, 'success', 'Password Changed').waitFor();

    await expect.poll(() => storedToken(page), POLL).toBe(answer.token);
    expect(answer.token).not.toBe(before);
    expect((await api(`users/${person.id}`, { token: before ?? '' })).status).toBe(401);
    expect((await api(`users/${person.id}`, { token: answer.token })).status).toBe(200);

    // Still signed in after closing the dialog, moving on and reloading.
    await page.goto('/tickets/');
    await heading(page, 'Tickets');
    await tableLoaded(page, 'Tickets');
    await page.reload();
    await heading(page, 'Tickets');
    expect(new URL(page.url()).pathname).toBe('/tickets/');
    const stored = await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? 'null') as { user: { role: string } }, AUTH_KEY);
    expect(stored.user.role).toBe('staff');
  });
});

describe('/audit/', () => {
  it('an admin finds it in the navigation, sees entries and narrows them by person, record type and dates', async () => {
    const person = await makeAccount('staff', 'Audra');
    const admin = await adminSession();
    const adminName = `${admin.firstName} ${admin.surname}`;
    const page = await chrome.open(LAPTOP);
    await page.goto('/dashboard');
    await heading(page, 'Dashboard');
    await mainNav(page).getByRole('link', { name: 'Audit log' }).click();
    await page.waitForURL('**/audit');
    await heading(page, 'Audit log');
    await tableLoaded(page, 'Audit log');
    expect(await tableRows(page, 'Audit log').count()).toBeGreaterThan(1);
    await screenshot(page, 'trust-audit-desktop');

    // The newly made account is among the admin's user entries.
    const byPerson = apiResponse(page, new RegExp(`^audit\\?.*actorId=${admin.userId}`));
    await choose(page, page.getByRole('combobox', { name: 'Person' }), adminName);
    await byPerson;
    const byType = apiResponse(page, /^audit\?.*entity=user/);
    await choose(page, page.getByRole('combobox', { name: 'Record type' }), 'User');
    await byType;
    await tableLoaded(page, 'Audit log');
    const rows = tableRows(page, 'Audit log');
    const personName = `${person.firstName} ${person.surname}`;
    await expect.poll(async () => (await rows.allTextContents()).some((text) => text.includes(`User: ${personName}`)), POLL).toBe(true);
    for (const text of await rows.allTextContents()) {
      expect(text).toContain(adminName);
      expect(text).toContain('User: ');
    }

    // An entry opens with its changes and a link to the record.
    await rows.filter({ hasText: `User: ${personName}` }).first().click();
    const panel = drawer(page);
    await panel.getByRole('link', { name: `User: ${personName}` }).waitFor();
    expect(await panel.getByRole('listitem').allTextContents()).toContain(`Email: ${person.email}`);
    await page.keyboard.press('Escape');
    await expect.poll(() => drawer(page).count(), POLL).toBe(0);

    // CSV export with the same filters.
    const downloaded = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const csv = csvLines(await downloadText(await downloaded));
    expect(csv[0]).toBe('id,at,actor_id,actor,action,entity,entity_id,changes,request_id');
    // Entries, then the line that says the file is whole.
    const entries = csv.slice(1, -1);
    expect(entries.length).toBeGreaterThan(0);
    expect(csv.at(-1)).toBe(`# end of export: ${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}`);
    expect(entries.every((line) => line.includes(`,${admin.userId},`) && line.includes(',user,'))).toBe(true);

    // A range that ends before today's entries leaves none of them.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const ranged = apiResponse(page, new RegExp(`^audit\\?.*from=${tomorrow}`));
    await page.getByLabel('From', { exact: true }).fill(tomorrow);
    expect((await ranged).status()).toBe(200);
    await page.getByText('No entries match these filters').waitFor();
    await page.getByLabel('To', { exact: true }).fill('2020-01-01');
    await page.getByText('Must be on or after From').waitFor();
  });

  it('at phone width shows the log, and an entry opens full width', async () => {
    const page = await chrome.open(PHONE);
    await page.goto('/audit/');
    await heading(page, 'Audit log');
    await tableLoaded(page, 'Audit log');
    await screenshot(page, 'trust-audit-phone');
    await tableRows(page, 'Audit log').first().click();
    await expectFullWidthDrawer(page);
    await drawer(page).getByText('Request id').waitFor();
    await screenshot(page, 'trust-audit-entry-phone');
  });
});
