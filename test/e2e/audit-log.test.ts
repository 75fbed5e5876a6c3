import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { AuditEntry, Company, Page as ListPage, Statement, Ticket } from '../../src/shared/types';
import {
  PHONE,
  POLL,
  adminApi,
  adminSession,
  apiLogin,
  browserPerFile,
  choose,
  csvLines,
  downloadText,
  drawer,
  drawerTitle,
  expectText,
  heading,
  makeAccount,
  screenshot,
  tableLoaded,
  tableRows,
  toast,
  toastText,
  todayUtc,
  uniqueTag,
} from './fixtures';

// The audit log keeps its filters and open entry in the address like every other list
// (docs/architecture.md#search-and-list-views), names what people know by name, and folds its
// filters on a phone as Tickets does.
const chrome = browserPerFile();
const LAPTOP = { width: 1366, height: 800 };

const search = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);
const combo = (page: Page, name: string) => page.getByRole('combobox', { name });
const field = (page: Page, name: string) => page.getByLabel(name, { exact: true });

const yesterdayUtc = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
/**
 * What names each listed entry whatever other tests do meanwhile: its instant and action. The row's
 * text also holds the record's and the person's current names, which other tests may change.
 */
const entryKeys = (page: Page) =>
  tableRows(page, 'Audit log').evaluateAll((rows) =>
    rows.map((row) => `${row.querySelector('time')?.getAttribute('datetime')} ${(row as HTMLTableRowElement).cells[2]?.textContent}`),
  );

/** The filter fields as the page shows them. */
const shownFilters = async (page: Page) => ({
  person: await combo(page, 'Person').inputValue(),
  type: await combo(page, 'Record type').inputValue(),
  action: await combo(page, 'Action').inputValue(),
  recordId: await field(page, 'Record id').inputValue(),
  from: await field(page, 'From').inputValue(),
  to: await field(page, 'To').inputValue(),
});

describe('/audit/ in the address', () => {
  it('keeps the filters and the open entry through reload, Back and a shared link', async () => {
    const person = await makeAccount('staff', 'Addy');
    const admin = await adminSession();
    const adminName = `${admin.firstName} ${admin.surname}`;
    const personName = `${person.firstName} ${person.surname}`;
    const today = todayUtc();
    const page = await chrome.open(LAPTOP);
    await page.goto('/audit/');
    await heading(page, 'Audit log');
    await tableLoaded(page, 'Audit log');

    await choose(page, combo(page, 'Person'), adminName);
    await choose(page, combo(page, 'Record type'), 'User');
    await choose(page, combo(page, 'Action'), 'Created');
    await field(page, 'Record id').fill(String(person.id));
    await field(page, 'From').fill(today);
    await field(page, 'To').fill(today);
    const filters = { actorId: String(admin.userId), entity: 'user', action: 'create', entityId: String(person.id), from: today, to: today };
    await expect.poll(() => search(page), POLL).toEqual(filters);
    await tableLoaded(page, 'Audit log');
    const rows = tableRows(page, 'Audit log');
    await expect.poll(() => rows.count(), POLL).toBe(1);

    await rows.first().click();
    await expectText(drawerTitle(page), `Created · User: ${personName}`);
    const entryId = search(page).id;
    expect(entryId).toMatch(/^\d+$/);
    const expected = { person: adminName, type: 'User', action: 'Created', recordId: String(person.id), from: today, to: today };
    await screenshot(page, 'audit-address-entry-desktop');

    await page.reload();
    await heading(page, 'Audit log');
    await expectText(drawerTitle(page), `Created · User: ${personName}`);
    expect(search(page)).toEqual({ ...filters, id: entryId });
    expect(await shownFilters(page)).toEqual(expected);

    // Back closes the entry and keeps the filters.
    await page.goBack();
    await expect.poll(() => search(page), POLL).toEqual(filters);
    await expect.poll(() => drawer(page).count(), POLL).toBe(0);
    expect(await shownFilters(page)).toEqual(expected);
    await page.goForward();
    await expectText(drawerTitle(page), `Created · User: ${personName}`);

    // The link pasted into another browser shows the same entry over the same filters.
    const shared = await chrome.open(LAPTOP);
    await shared.goto(page.url());
    await heading(shared, 'Audit log');
    await expectText(drawerTitle(shared), `Created · User: ${personName}`);
    expect(await shownFilters(shared)).toEqual(expected);
  });

  it('keeps the page through reload and a shared link', async () => {
    const page = await chrome.open(LAPTOP);
    // Entries up to yesterday only, so entries other tests write now cannot move the pages.
    await page.goto(`/audit/?action=create&to=${yesterdayUtc()}`);
    await tableLoaded(page, 'Audit log');
    const rowsShown = async () => {
      const keys = await entryKeys(page);
      // Rows, not the placeholders drawn while a page is read.
      return keys.some((key) => key.startsWith('undefined')) ? [] : keys;
    };
    await expect.poll(async () => (await rowsShown()).length, POLL).toBeGreaterThan(0);
    const pageOne = await rowsShown();
    await page.getByRole('button', { name: '2', exact: true }).click();
    await expect.poll(() => search(page), POLL).toEqual({ action: 'create', to: yesterdayUtc(), page: '2' });
    // The address changes a frame before page 1's rows give way, so wait for other rows.
    await expect.poll(async () => { const keys = await rowsShown(); return keys.length > 0 && keys.join() !== pageOne.join(); }, POLL).toBe(true);
    const pageTwo = await rowsShown();
    expect(pageTwo.length).toBeGreaterThan(0);

    await page.reload();
    await tableLoaded(page, 'Audit log');
    await expect.poll(() => entryKeys(page), POLL).toEqual(pageTwo);
    const shared = await chrome.open(LAPTOP);
    await shared.goto(page.url());
    await tableLoaded(shared, 'Audit log');
    await expect.poll(() => entryKeys(shared), POLL).toEqual(pageTwo);
    await page.goBack();
    await expect.poll(() => search(page), POLL).toEqual({ action: 'create', to: yesterdayUtc() });
  });
  it('a shared link opens its entry after newer entries have pushed it off the first page', async () => {
    const company = await adminApi<Company>('companies', { method: 'POST', body: { name: `Pushed ${uniqueTag()}` } });
    const log = await adminApi<ListPage<AuditEntry>>(`audit?entity=company&entityId=${company.id}`);
    const created = log.items[0]!;
    // More new entries than one page holds, so the created entry is on page 2 of the whole log.
    for (let i = 0; i < 51; i += 1) await adminApi('companies', { method: 'POST', body: { name: `Pusher ${uniqueTag()}` } });
    const firstPage = await adminApi<ListPage<AuditEntry>>('audit?pageSize=50');
    expect(firstPage.items.map((entry) => entry.id)).not.toContain(created.id);

    const page = await chrome.open(LAPTOP);
    await page.goto(`/audit/?id=${created.id}`);
    await heading(page, 'Audit log');
    await expectText(drawerTitle(page), `Created · Company: ${company.name}`);
  });
});

describe('/audit/ names', () => {
  it('shows people, companies and statements by name and a failed sign-in by the email tried', async () => {
    const tag = uniqueTag();
    const person = await makeAccount('staff', 'Nomi');
    const personName = `${person.firstName} ${person.surname}`;
    const company = await adminApi<Company>('companies', { method: 'POST', body: { name: `Named Co ${tag}` } });
    const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Named ticket ${tag}`, companyId: company.id, assigneeId: person.id } });
    const tried = `nobody-${tag}@example.com`;
    expect((await apiLogin({ email: tried, password: 'not-a-password' })).status).toBe(401);
    const page = await chrome.open(LAPTOP);

    // A ticket's entry: its changes name the company and the assignee.
    await page.goto(`/audit/?entity=ticket&entityId=${ticket.id}`);
    await tableLoaded(page, 'Audit log');
    await tableRows(page, 'Audit log').first().click();
    await expectText(drawerTitle(page), `Created · Ticket: #${ticket.id} Named ticket ${tag}`);
    const changes = drawer(page).getByTestId('change-list').getByRole('listitem');
    await expect.poll(() => changes.allTextContents(), POLL).toEqual(expect.arrayContaining([`Company: ${company.name}`, `Assignee: ${personName}`]));
    expect((await drawer(page).textContent()) ?? '').not.toMatch(/#\d+\b(?! Named)/);
    await screenshot(page, 'audit-names-ticket-desktop');

    // The person made by the admin, by name, and a link to them by name.
    await page.goto(`/audit/?entity=user&entityId=${person.id}`);
    await tableLoaded(page, 'Audit log');
    await expect.poll(() => tableRows(page, 'Audit log').allTextContents(), POLL).toEqual([expect.stringContaining(`User: ${personName}`)]);
    await tableRows(page, 'Audit log').first().click();
    await drawer(page).getByRole('link', { name: `User: ${personName}` }).waitFor();

    // A failed sign-in: who tried is the email they typed.
    await page.goto('/audit/?action=login_failed');
    await tableLoaded(page, 'Audit log');
    const failed = tableRows(page, 'Audit log').filter({ hasText: tried });
    await expect.poll(() => failed.count(), POLL).toBe(1);
    expect(await page.getByText('Someone unknown').count()).toBe(0);

    // Statements by their number.
    const statements = await adminApi<ListPage<Statement>>('invoices/gifs/statements?page=1&pageSize=1');
    const statement = statements.items[0];
    if (!statement) throw new Error('the demo data has no statement');
    await page.goto(`/audit/?entity=statement&entityId=${statement.id}`);
    await tableLoaded(page, 'Audit log');
    await expect.poll(async () => (await tableRows(page, 'Audit log').allTextContents()).every((text) => text.includes(`Statement: ${statement.number}`)), POLL).toBe(true);
    const history = await adminApi<ListPage<AuditEntry>>(`audit?entity=statement&entityId=${statement.id}`);
    expect(history.items.length).toBeGreaterThan(0);
    await screenshot(page, 'audit-names-statement-desktop');
  });
});

describe('filters on a phone', () => {
  it.each([
    { path: '/audit/', title: 'Audit log', table: 'Audit log', field: 'Person', set: '?entity=user&action=create' },
    { path: '/invoices/autofi/', title: 'Autofi', table: 'Autofi lines', field: 'Period', set: '?status=approved' },
    { path: '/invoices/3dtracking/', title: '3D Tracking', table: '3D Tracking lines', field: 'Period', set: '?status=approved' },
    { path: '/invoices/gifs/sla', title: 'GIFS SLA', table: 'GIFS SLA lines', field: 'Status', set: '?status=approved' },
    { path: '/invoices/gifs/azure', title: 'GIFS Azure', table: 'GIFS Azure lines', field: 'Status', set: '?status=approved' },
  ])('$title folds them behind a Filters button that counts the ones set', async ({ path, title, table, field: name, set }) => {
    const page = await chrome.open(PHONE);
    await page.goto(path);
    await heading(page, title);
    await tableLoaded(page, table);
    const button = page.getByRole('button', { name: 'Filters', exact: true });
    await button.waitFor();
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    expect(await combo(page, name).isVisible()).toBe(false);
    // The list starts within the first screen.
    const top = (await page.getByRole('table', { name: table, exact: true }).boundingBox())?.y ?? Infinity;
    expect(top).toBeLessThan(PHONE.height);
    await screenshot(page, `phone-filters-${title.replace(/\W+/g, '-').toLowerCase()}-folded`);

    await button.click();
    await combo(page, name).waitFor({ state: 'visible' });
    expect(await page.getByRole('button', { name: 'Hide filters' }).getAttribute('aria-expanded')).toBe('true');
    await screenshot(page, `phone-filters-${title.replace(/\W+/g, '-').toLowerCase()}-open`);

    await page.goto(`${path}${set}`);
    await tableLoaded(page, table);
    const count = set.split('&').length;
    await expectText(page.getByRole('button', { name: /^Filters/ }), `Filters${count}`);
  });
});

describe('Export CSV', () => {
  it("downloads the filter's entries ending with the end line, and says so when a download is cut off", async () => {
    const person = await makeAccount('staff', 'Exporty');
    const page = await chrome.open(LAPTOP);
    await page.goto(`/audit/?entity=user&entityId=${person.id}`);
    await heading(page, 'Audit log');
    await tableLoaded(page, 'Audit log');
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const rows = csvLines(await downloadText(await downloading));
    expect(rows[0]).toBe('id,at,actor_id,actor,action,entity,entity_id,changes,request_id');
    expect(rows[1]).toContain(`,create,user,${person.id},`);
    expect(rows.slice(2)).toEqual(['# end of export: 1 entry']);

    // The same file with its end line lost on the way, as a connection closed early would leave it.
    const whole = rows.slice(0, 2).map((row) => `${row}\r\n`).join('');
    await page.route('**/api/v1/audit.csv*', (route) => route.fulfill({ status: 200, contentType: 'text/csv; charset=utf-8', body: whole }));
    let saved = 0;
    page.on('download', () => (saved += 1));
    await page.getByRole('button', { name: 'Export CSV' }).click();
    await expect.poll(() => toastText(toast(page, 'error', 'Export failed')), POLL).toContain('The download was cut off before the end, so nothing was saved');
    expect(saved).toBe(0);
  });
});
