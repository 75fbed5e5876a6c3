import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Ticket } from '../../src/shared/types';
import { adminApi, browserPerFile, choose, dayRangeInPage, heading, POLL, tableLoaded, tableRows, uniqueTag } from './fixtures';

// docs/architecture.md#search-and-list-views: every list page keeps its view in the address, so reload, Back and a pasted link
// show the same list, and values that make no sense are dropped without breaking the page.
const chrome = browserPerFile();

const search = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);
const rowIds = async (page: Page) => (await tableRows(page, 'Tickets').locator('td:first-child').allTextContents()).map(Number);
const historyLength = (page: Page) => page.evaluate(() => window.history.length);

const expectNoErrorScreen = async (page: Page) => {
  expect(await page.getByText('Something went wrong!').count()).toBe(0);
};
const shows = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor();

describe('ticket list in the address', () => {
  it('keeps status, priority, sort and page through reload and Back', async () => {
    const page = await chrome.open();
    await page.goto('/tickets/');
    await tableLoaded(page, 'Tickets');

    await choose(page, page.getByRole('combobox', { name: 'Status' }), 'Open');
    await expect.poll(() => search(page), POLL).toEqual({ status: 'open' });
    await choose(page, page.getByRole('combobox', { name: 'Priority' }), 'High');
    await page.getByRole('button', { name: 'Sort by Title' }).click();
    await expect.poll(() => search(page), POLL).toEqual({ status: 'open', priority: 'high', sort: 'title' });
    // Rows with real numbers: a table that is loading shows skeleton rows, which read as 0.
    const loadedIds = async () => {
      await tableLoaded(page, 'Tickets');
      const ids = await rowIds(page);
      return ids.length > 0 && ids.every((id) => id > 0) ? ids : [];
    };
    await expect.poll(loadedIds, POLL).not.toEqual([]);
    const pageOne = await loadedIds();
    await page.getByRole('button', { name: '2', exact: true }).click();
    await expect.poll(() => search(page), POLL).toMatchObject({ page: '2' });
    await expect.poll(async () => {
      const ids = await loadedIds();
      return ids.length > 0 && ids.every((id) => !pageOne.includes(id));
    }, POLL).toBe(true);
    const pageTwo = await loadedIds();

    await page.reload();
    await tableLoaded(page, 'Tickets');
    expect(search(page)).toEqual({ status: 'open', priority: 'high', sort: 'title', page: '2' });
    await expect.poll(loadedIds, POLL).toEqual(pageTwo);
    expect(await page.getByRole('combobox', { name: 'Status' }).inputValue()).toBe('Open');
    expect(await page.getByRole('combobox', { name: 'Priority' }).inputValue()).toBe('High');

    await page.goBack();
    await expect.poll(() => search(page), POLL).toEqual({ status: 'open', priority: 'high', sort: 'title' });
    await expect.poll(loadedIds, POLL).toEqual(pageOne);
  });

  it('replaces the history entry while typing a search, and a pasted link shows the same result', async () => {
    const word = `zq${uniqueTag().replace(/\d/g, 'k')}`;
    const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Router ${word} keeps dropping` } });
    const page = await chrome.open();
    await page.goto('/tickets/');
    await tableLoaded(page, 'Tickets');
    const before = await historyLength(page);
    await page.getByRole('searchbox', { name: 'Search' }).pressSequentially(word.slice(0, 6), { delay: 40 });
    await expect.poll(() => search(page).q, POLL).toBe(word.slice(0, 6));
    await expect.poll(() => rowIds(page), POLL).toEqual([ticket.id]);
    expect(await historyLength(page)).toBe(before);

    const link = page.url();
    const other = await chrome.open();
    await other.goto(link);
    await tableLoaded(other, 'Tickets');
    await expect.poll(() => rowIds(other), POLL).toEqual([ticket.id]);
    expect(await other.getByRole('searchbox', { name: 'Search' }).inputValue()).toBe(word.slice(0, 6));
  });
});

describe('other list pages in the address', () => {
  it('users: search and status survive a reload', async () => {
    const page = await chrome.open();
    await page.goto('/users/?q=admin&status=active');
    await tableLoaded(page, 'Users');
    await expect.poll(() => tableRows(page, 'Users').count(), POLL).toBeGreaterThan(0);
    expect(await page.getByRole('searchbox', { name: 'Search' }).inputValue()).toBe('admin');
    expect(await page.getByRole('combobox', { name: 'Status' }).inputValue()).toBe('Active');
    await choose(page, page.getByRole('combobox', { name: 'Status' }), 'Inactive');
    await expect.poll(() => search(page), POLL).toEqual({ q: 'admin', status: 'inactive' });
    await page.reload();
    await heading(page, 'Users');
    await expect.poll(() => page.getByRole('combobox', { name: 'Status' }).inputValue(), POLL).toBe('Inactive');
    expect(await page.getByRole('searchbox', { name: 'Search' }).inputValue()).toBe('admin');
  });

  it('a ledger: period, status and page survive a reload, and statements keep their page', async () => {
    const page = await chrome.open();
    await page.goto('/invoices/autofi/');
    await tableLoaded(page, 'Autofi lines');
    await choose(page, page.getByRole('combobox', { name: 'Status' }), 'Approved');
    await expect.poll(() => search(page), POLL).toEqual({ status: 'approved' });
    await page.reload();
    await tableLoaded(page, 'Autofi lines');
    expect(await page.getByRole('combobox', { name: 'Status' }).inputValue()).toBe('Approved');

    await page.goto('/invoices/gifs/statement?page=1');
    await tableLoaded(page, 'Statements');
    expect(search(page)).toEqual({ page: '1' });
  });

  it('timesheet: the period and the view survive a reload, and switching view keeps the period', async () => {
    const page = await chrome.open();
    await page.goto('/reports/timesheet/?view=month&from=2026-03-14');
    await heading(page, 'Timesheet');
    await shows(page, await dayRangeInPage(page, '2026-03-01', '2026-03-31'));
    await page.getByRole('button', { name: 'Previous month' }).click();
    await expect.poll(() => search(page), POLL).toEqual({ view: 'month', from: '2026-02-01' });
    await page.reload();
    await shows(page, await dayRangeInPage(page, '2026-02-01', '2026-02-28'));
    // The first week whose Thursday is in February, so Month leads back to February.
    await page.getByText('Week', { exact: true }).click();
    await shows(page, await dayRangeInPage(page, '2026-02-02', '2026-02-08'));
    await page.getByText('Month', { exact: true }).click();
    await shows(page, await dayRangeInPage(page, '2026-02-01', '2026-02-28'));
  });

  it('ticket report: a range typed into the dates is kept in the address', async () => {
    const page = await chrome.open();
    await page.goto('/reports/ticket-report/?range=2026-01-01..2026-03-31');
    await heading(page, 'Ticket report');
    expect(await page.getByLabel('From', { exact: true }).inputValue()).toBe('2026-01-01');
    expect(await page.getByLabel('To', { exact: true }).inputValue()).toBe('2026-03-31');
    await page.getByLabel('To', { exact: true }).fill('2026-02-28');
    await expect.poll(() => search(page), POLL).toEqual({ range: '2026-01-01..2026-02-28' });
    await page.reload();
    expect(await page.getByLabel('To', { exact: true }).inputValue()).toBe('2026-02-28');
  });
});

describe('values that make no sense', () => {
  it.each([
    ['/tickets/?page=abc&status=bogus&sort=../x&priority=&companyId=-4&assigneeId=1.5', 'Tickets'],
    ['/users/?page=0&status=zzz&q=', 'Users'],
    ['/lookups/companies/?page=-3', 'Companies'],
    ['/lookups/ticket-categories/?page=1e9', 'Ticket categories'],
    ['/invoices/autofi/?period=2026-13&status=paid&page=-1', 'Autofi lines'],
  ])('%s renders its list', async (path, table) => {
    const page = await chrome.open();
    await page.goto(path);
    await tableLoaded(page, table);
    await expect.poll(() => tableRows(page, table).count(), POLL).toBeGreaterThan(0);
    await expectNoErrorScreen(page);
  });

  it.each(['/reports/timesheet/?view=year&from=2026-02-30', '/reports/ticket-report/?range=2026-01-01..2028-01-01', '/reports/ticket-report/?range=garbage'])(
    '%s renders the report',
    async (path) => {
      const page = await chrome.open();
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.getByText(/^(Total hours|Opened)$/).first().waitFor();
      await expectNoErrorScreen(page);
    },
  );
});
