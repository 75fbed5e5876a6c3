import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Company, Page as ListPage, Ticket, TicketComment, TimeEntry } from '../../src/shared/types';
import {
  PHONE,
  POLL,
  adminApi,
  apiResponse,
  browserPerFile,
  choose,
  drawer,
  drawerTitle,
  expectFullWidthDrawer,
  expectText,
  heading,
  modal,
  numberInPage,
  screenshot,
  tableLoaded,
  tableRows,
  textOf,
  toast,
  uniqueTag,
} from './fixtures';

const chrome = browserPerFile();
const LIST = 'Tickets';

/** A ticket of this test alone, made through the API. */
const makeTicket = (fields: Partial<Ticket> = {}) =>
  adminApi<Ticket>('tickets', { method: 'POST', body: { title: `E2E ticket ${uniqueTag()}`, priority: 'normal', ...fields } });

const openList = async (page: Page, path = '/tickets/') => {
  await page.goto(path);
  await heading(page, 'Tickets');
  await tableLoaded(page, LIST);
};

/** The first cell (#) of each visible row, as numbers. */
const rowIds = async (page: Page) => (await tableRows(page, LIST).locator('td:first-child').allTextContents()).map(Number);

/** Types into the list's search box and waits for the list to answer for that text. */
const search = async (page: Page, text: string) => {
  const answered = apiResponse(page, new RegExp(`^tickets\\?.*q=${encodeURIComponent(text).replace(/%20/g, '(\\+|%20)')}`));
  await page.getByRole('searchbox', { name: 'Search' }).fill(text);
  await answered;
  await tableLoaded(page, LIST);
};

describe('tickets page', () => {
  it("creates a ticket through 'New ticket' and opens it at /tickets/?id=<new id>", async () => {
    const company = await adminApi<Company>('companies', { method: 'POST', body: { name: `E2E Tickets Co ${uniqueTag()}` } });
    const title = `Printer on fire ${uniqueTag()}`;
    const page = await chrome.open();
    await openList(page);
    await page.getByRole('button', { name: 'New ticket' }).click();
    const form = modal(page);
    await form.getByLabel('Title').fill(title);
    await form.getByLabel('Description').fill('Smoke from tray 2.');
    await choose(page, form.getByRole('combobox', { name: 'Priority' }), 'High');
    await choose(page, form.getByRole('combobox', { name: 'Company' }), company.name);
    await screenshot(page, 'tickets-create-desktop');

    const posted = apiResponse(page, /^tickets$/, 'POST');
    await form.getByRole('button', { name: 'Create ticket' }).click();
    const response = await posted;
    expect(response.status()).toBe(201);
    const created = (await response.json()) as Ticket;

    await toast(page, 'success', 'Ticket created').waitFor();
    await page.waitForURL((url) => url.pathname === '/tickets/' && url.searchParams.get('id') === String(created.id));
    await expectText(drawerTitle(page), `#${created.id} ${title}`);
    // The dialog closes with a short fade; the drawer may open before the fade ends.
    await expect.poll(() => page.getByRole('dialog', { name: 'New ticket' }).count(), POLL).toBe(0);
    expect(await adminApi<Ticket>(`tickets/${created.id}`)).toMatchObject({
      title,
      description: 'Smoke from tray 2.',
      priority: 'high',
      status: 'open',
      companyId: company.id,
      companyName: company.name,
    });
    // The drawer reads the stored values, and its form holds them.
    const facts = drawer(page).getByTestId('ticket-view').getByRole('definition');
    await expect.poll(() => facts.nth(1).textContent(), POLL).toBe('High');
    expect(await facts.nth(3).textContent()).toBe(company.name);
    await drawer(page).getByRole('button', { name: /^Edit ticket #/ }).click();
    expect(await drawer(page).getByRole('combobox', { name: 'Priority' }).inputValue()).toBe('High');
    expect(await drawer(page).getByRole('combobox', { name: 'Company' }).inputValue()).toBe(company.name);
  });

  it('filtering by Status and searching by a unique title finds the ticket', async () => {
    const ticket = await makeTicket({ status: 'on_hold' });
    const page = await chrome.open();
    await openList(page);
    const filtered = apiResponse(page, /^tickets\?.*status=on_hold/);
    await choose(page, page.getByRole('combobox', { name: 'Status' }), 'On hold');
    await filtered;
    await tableLoaded(page, LIST);
    const statuses = await tableRows(page, LIST).locator('td:nth-child(3)').allTextContents();
    expect(statuses.length).toBeGreaterThan(0);
    expect(new Set(statuses)).toEqual(new Set(['On hold']));
    const onHold = await adminApi<ListPage<Ticket>>('tickets?status=on_hold');
    await page.getByText(`${await numberInPage(page, onHold.total)} records`, { exact: true }).waitFor();

    await search(page, ticket.title);
    await expect.poll(() => rowIds(page), POLL).toEqual([ticket.id]);
    expect(await textOf(tableRows(page, LIST).first())).toContain(ticket.title);
    await screenshot(page, 'tickets-filtered-desktop');
  });

  it("sorts by '#' when its header is clicked, and marks the header with aria-sort", async () => {
    const page = await chrome.open();
    await openList(page);
    const idHeader = page.getByRole('columnheader', { name: 'Sort by #' });
    expect(await idHeader.getAttribute('aria-sort')).toBeNull();
    const before = await rowIds(page);

    const ascending = apiResponse(page, /^tickets\?.*sort=id(&|$)/);
    await page.getByRole('button', { name: 'Sort by #' }).click();
    await ascending;
    await expect.poll(() => idHeader.getAttribute('aria-sort'), POLL).toBe('ascending');
    const lowest = (await adminApi<ListPage<Ticket>>('tickets?sort=id&pageSize=25')).items.map((t) => t.id);
    await expect.poll(() => rowIds(page), POLL).toEqual(lowest);
    expect(lowest).not.toEqual(before);

    const descending = apiResponse(page, /^tickets\?.*sort=-id(&|$)/);
    await page.getByRole('button', { name: 'Sort by #' }).click();
    await descending;
    await expect.poll(() => idHeader.getAttribute('aria-sort'), POLL).toBe('descending');
    const highest = (await adminApi<ListPage<Ticket>>('tickets?sort=-id&pageSize=25')).items.map((t) => t.id);
    await expect.poll(() => rowIds(page), POLL).toEqual(highest);
    expect(highest[0]).toBeGreaterThan(highest[1] ?? Infinity);
    // Another column's header carries no aria-sort while # is the sort.
    expect(await page.getByRole('columnheader', { name: 'Sort by Title' }).getAttribute('aria-sort')).toBeNull();
  });

  it('saving the status as Resolved shows Resolved in the list', async () => {
    const ticket = await makeTicket();
    const page = await chrome.open();
    await openList(page);
    await search(page, ticket.title);
    // The answer can arrive a render before the rows do: wait for this ticket's row, not the
    // first row of the list the search replaces.
    await expect.poll(() => rowIds(page), POLL).toEqual([ticket.id]);
    const row = tableRows(page, LIST).first();
    await expectText(row.locator('td:nth-child(3)'), 'Open');
    // The row's middle can be its status or priority button, which opens its own menu: open the
    // ticket from its number.
    await row.locator('td:first-child').click();
    await page.waitForURL((url) => url.searchParams.get('id') === String(ticket.id));
    const panel = drawer(page);
    await expectText(drawerTitle(page), `#${ticket.id} ${ticket.title}`);

    await panel.getByRole('button', { name: /^Edit ticket #/ }).click();
    await choose(page, panel.getByRole('combobox', { name: 'Status' }), 'Resolved');
    const saved = apiResponse(page, new RegExp(`^tickets/${ticket.id}$`), 'PATCH');
    await panel.getByRole('button', { name: 'Save ticket' }).click();
    expect((await saved).status()).toBe(200);
    await toast(page, 'success', 'Ticket saved').waitFor();
    await expectText(row.locator('td:nth-child(3)'), 'Resolved');
    const stored = await adminApi<Ticket>(`tickets/${ticket.id}`);
    expect(stored.status).toBe('resolved');
    expect(stored.resolvedAt).not.toBeNull();
    const resolvedOn = await page.evaluate((iso) => new Date(iso).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' }), stored.resolvedAt ?? '');
    await panel.getByText(`resolved ${resolvedOn}`).waitFor();
  });

  it('adds a comment, which then appears in the Comments list', async () => {
    const ticket = await makeTicket();
    const body = `Replaced the fuser ${uniqueTag()}`;
    const page = await chrome.open();
    await page.goto(`/tickets/?id=${ticket.id}`);
    const panel = drawer(page);
    await panel.getByText('No comments yet.').waitFor();
    await panel.getByLabel('New comment').fill(body);
    const posted = apiResponse(page, new RegExp(`^tickets/${ticket.id}/comments$`), 'POST');
    await panel.getByRole('button', { name: 'Add comment' }).click();
    expect((await posted).status()).toBe(201);
    await panel.locator('p', { hasText: body }).waitFor();
    await expect.poll(() => panel.getByText('No comments yet.').count(), POLL).toBe(0);
    // The form is empty again for the next comment.
    await expect.poll(() => panel.getByLabel('New comment').inputValue(), POLL).toBe('');
    const { items } = await adminApi<{ items: TicketComment[] }>(`tickets/${ticket.id}/comments`);
    expect(items.map((c) => c.body)).toEqual([body]);
  });

  it("logs 90 minutes, and the Time total reads '1 h 30 min'", async () => {
    const ticket = await makeTicket();
    const page = await chrome.open();
    await page.goto(`/tickets/?id=${ticket.id}`);
    const panel = drawer(page);
    const total = panel.getByTestId('time-total');
    await expectText(total, '0 min logged · 0 min billable');
    await panel.getByLabel('Minutes').fill('90');
    await panel.getByLabel('Note').fill('On site');
    const posted = apiResponse(page, new RegExp(`^tickets/${ticket.id}/time-entries$`), 'POST');
    await panel.getByRole('button', { name: 'Log time' }).click();
    expect((await posted).status()).toBe(201);
    await toast(page, 'success', 'Time logged').waitFor();
    await expectText(total, '1 h 30 min logged · 1 h 30 min billable');
    await panel.getByRole('table', { name: 'Time entries' }).getByText('On site').waitFor();
    await screenshot(page, 'tickets-drawer-desktop');
    const { items } = await adminApi<{ items: TimeEntry[] }>(`tickets/${ticket.id}/time-entries`);
    expect(items.map((e) => [e.minutes, e.note, e.billable])).toEqual([[90, 'On site', true]]);
  });

  it("opening /tickets/?id=<id> in a new page shows that ticket's title in the drawer", async () => {
    const ticket = await makeTicket({ description: 'Opened by address' });
    const page = await chrome.open();
    await page.goto(`/tickets/?id=${ticket.id}`);
    await heading(page, 'Tickets');
    await expectText(drawerTitle(page), `#${ticket.id} ${ticket.title}`);
    await drawer(page).getByRole('button', { name: /^Edit ticket #/ }).click();
    expect(await drawer(page).getByLabel('Title').inputValue()).toBe(ticket.title);
    expect(await drawer(page).getByLabel('Description').inputValue()).toBe('Opened by address');
    // Closing the drawer takes the id out of the address.
    await page.getByRole('button', { name: 'Close panel' }).click();
    await page.waitForURL((url) => url.pathname === '/tickets/' && !url.searchParams.has('id'));
  });

  it('pagination goes to page 2, with a different first row', async () => {
    const page = await chrome.open();
    await openList(page);
    const first = await rowIds(page);
    expect(first).toHaveLength(25);
    const second = apiResponse(page, /^tickets\?.*page=2/);
    await page.getByRole('button', { name: '2', exact: true }).click();
    await second;
    const expected = (await adminApi<ListPage<Ticket>>('tickets?sort=-createdAt&page=2')).items.map((t) => t.id);
    await expect.poll(() => rowIds(page), POLL).toEqual(expected);
    expect(expected[0]).not.toBe(first[0]);
    expect(first).not.toContain(expected[0]);
    expect(await page.getByRole('button', { name: '2', exact: true }).getAttribute('aria-current')).toBe('page');
  });

  it('at phone width renders its h1 and the ticket drawer fills the screen', async () => {
    const ticket = await makeTicket();
    const page = await chrome.open(PHONE);
    await openList(page);
    await screenshot(page, 'tickets-list-phone');
    await page.goto(`/tickets/?id=${ticket.id}`);
    await heading(page, 'Tickets');
    await expectText(drawerTitle(page), `#${ticket.id} ${ticket.title}`);
    await expectFullWidthDrawer(page);
    await screenshot(page, 'tickets-drawer-phone');
  });
});
