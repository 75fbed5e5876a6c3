import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Page as ListPage, Ticket } from '../../src/shared/types';
import {
  PHONE,
  POLL,
  adminApi,
  adminApiAnswer,
  apiResponse,
  browserPerFile,
  drawer,
  drawerTitle,
  expectFullWidthDrawer,
  expectText,
  heading,
  modal,
  screenshot,
  tableLoaded,
  tableRows,
  toast,
  toastText,
  uniqueTag,
} from './fixtures';

const chrome = browserPerFile();

interface Lookup {
  id: number;
  name: string;
}

const LOOKUPS = [
  {
    area: 'companies',
    path: '/lookups/companies/',
    resource: 'companies',
    title: 'Companies',
    noun: 'Company',
    /** How the server's messages name one record. */
    spoken: 'company',
    ticketField: 'companyId',
  },
  {
    area: 'ticket categories',
    path: '/lookups/ticket-categories/',
    resource: 'ticket-categories',
    title: 'Ticket categories',
    noun: 'Category',
    spoken: 'ticket category',
    ticketField: 'categoryId',
  },
] as const;

describe.each(LOOKUPS)('$area page', ({ path, resource, title, noun, spoken, ticketField }) => {
  const lower = noun.toLowerCase();
  const make = (name = `E2E ${noun} ${uniqueTag()}`) => adminApi<Lookup>(resource, { method: 'POST', body: { name } });

  const openList = async (page: Page, address: string = path) => {
    await page.goto(address);
    await heading(page, title);
  };

  const search = async (page: Page, text: string) => {
    const answered = apiResponse(page, new RegExp(`^${resource}\\?.*q=`));
    await page.getByRole('searchbox', { name: 'Search' }).fill(text);
    await answered;
  };

  it(`creates a ${lower} through 'New ${lower}' and opens it by ?id`, async () => {
    const name = `E2E ${noun} ${uniqueTag()}`;
    const page = await chrome.open();
    await openList(page);
    await tableLoaded(page, title);
    await screenshot(page, `lookups-${resource}-desktop`);
    await page.getByRole('button', { name: `New ${lower}` }).click();
    const form = modal(page);
    await form.getByLabel('Name').fill(name);
    const posted = apiResponse(page, new RegExp(`^${resource}$`), 'POST');
    await form.getByRole('button', { name: `Create ${lower}` }).click();
    const response = await posted;
    expect(response.status()).toBe(201);
    const created = (await response.json()) as Lookup;
    await toast(page, 'success', `${noun} created`).waitFor();
    await page.waitForURL((url) => url.pathname === path && url.searchParams.get('id') === String(created.id));
    await expectText(drawerTitle(page), name);
    expect(await drawer(page).getByLabel('Name').inputValue()).toBe(name);
    expect((await adminApi<Lookup>(`${resource}/${created.id}`)).name).toBe(name);
    await screenshot(page, `lookups-${resource}-drawer-desktop`);
  });

  it(`renames a ${lower} in its drawer`, async () => {
    const record = await make();
    const renamed = `E2E Renamed ${uniqueTag()}`;
    const page = await chrome.open();
    await openList(page, `${path}?id=${record.id}`);
    const panel = drawer(page);
    await expectText(drawerTitle(page), record.name);
    await panel.getByLabel('Name').fill(renamed);
    await panel.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'success', `${noun} saved`).waitFor();
    await expectText(drawerTitle(page), renamed);
    expect((await adminApi<Lookup>(`${resource}/${record.id}`)).name).toBe(renamed);
    await search(page, renamed);
    await expect.poll(() => tableRows(page, title).locator('td:first-child').allTextContents(), POLL).toEqual([renamed]);
  });

  it(`refuses a duplicate ${lower} name with an error toast`, async () => {
    const existing = await make();
    const page = await chrome.open();
    await openList(page);
    await page.getByRole('button', { name: `New ${lower}` }).click();
    const form = modal(page);
    await form.getByLabel('Name').fill(existing.name);
    const posted = apiResponse(page, new RegExp(`^${resource}$`), 'POST');
    await form.getByRole('button', { name: `Create ${lower}` }).click();
    expect((await posted).status()).toBe(409);
    const error = toast(page, 'error', 'already exists');
    await error.waitFor();
    expect(await toastText(error)).toBe(`${noun} not created | A ${spoken} with this name already exists`);
    // The form stays open with what was typed, and no second record appeared.
    expect(await form.getByLabel('Name').inputValue()).toBe(existing.name);
    const same = await adminApi<ListPage<Lookup>>(`${resource}?q=${encodeURIComponent(existing.name)}`);
    expect(same.items.map((r) => r.id)).toEqual([existing.id]);
  });

  it(`deletes an unused ${lower} after the confirm dialog`, async () => {
    const record = await make();
    const page = await chrome.open();
    await openList(page, `${path}?id=${record.id}`);
    await expectText(drawerTitle(page), record.name);
    await drawer(page).getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: `Delete ${lower}?` });
    await confirm.waitFor();
    await expectText(confirm.locator('strong'), record.name);
    await screenshot(page, `lookups-${resource}-confirm-desktop`);
    const deleted = apiResponse(page, new RegExp(`^${resource}/${record.id}$`), 'DELETE');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    expect((await deleted).status()).toBe(204);
    await toast(page, 'success', `${noun} deleted`).waitFor();
    await page.waitForURL((url) => url.pathname === path && !url.searchParams.has('id'));
    await expect.poll(() => drawer(page).count(), POLL).toBe(0);
    await search(page, record.name);
    await page.getByText(`No ${title.toLowerCase()} match this search`).waitFor();
    expect((await adminApiAnswer(`${resource}/${record.id}`)).status).toBe(404);
  });

  it(`says at once, in the first dialog, that a ${lower} a ticket still uses cannot be deleted`, async () => {
    const record = await make();
    await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Uses ${record.name}`, [ticketField]: record.id } });
    const page = await chrome.open();
    await openList(page, `${path}?id=${record.id}`);
    await expectText(drawerTitle(page), record.name);
    let deletes = 0;
    page.on('request', (request) => {
      if (request.method() === 'DELETE') deletes += 1;
    });
    await drawer(page).getByRole('button', { name: 'Delete' }).click();
    // The first dialog already says so, and offers no Delete to press.
    const confirm = page.getByRole('dialog', { name: `Delete ${lower}?` });
    await expectText(confirm.getByText('cannot be deleted'), `${record.name} cannot be deleted: it is still used by tickets. Mark it inactive instead.`);
    expect(await confirm.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    expect(await confirm.getByText('cannot be undone').count()).toBe(0);
    await screenshot(page, `lookups-${resource}-in-use-desktop`);
    await confirm.getByRole('button', { name: 'OK', exact: true }).click();
    await expect.poll(() => confirm.count(), POLL).toBe(0);
    expect(deletes).toBe(0);
    expect((await adminApi<Lookup>(`${resource}/${record.id}`)).name).toBe(record.name);
    // The provider refuses it too, whatever the page shows.
    expect((await adminApiAnswer(`${resource}/${record.id}`, { method: 'DELETE' })).status).toBe(409);
    expect(new URL(page.url()).searchParams.get('id')).toBe(String(record.id));
  });

  it(`at phone width renders its h1 and the ${lower} drawer fills the screen`, async () => {
    const record = await make();
    const page = await chrome.open(PHONE);
    await openList(page);
    await tableLoaded(page, title);
    await screenshot(page, `lookups-${resource}-phone`);
    await openList(page, `${path}?id=${record.id}`);
    await expectText(drawerTitle(page), record.name);
    await expectFullWidthDrawer(page);
    await screenshot(page, `lookups-${resource}-drawer-phone`);
  });
});
