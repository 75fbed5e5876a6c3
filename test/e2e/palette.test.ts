import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { InvoiceLine, Ticket } from '../../src/shared/types';
import {
  PHONE,
  POLL,
  adminApi,
  browserPerFile,
  drawerTitle,
  heading,
  screenshot,
  tableLoaded,
  uniqueTag,
} from './fixtures';

// The command palette (docs/architecture.md#search-and-list-views): Ctrl+K, Cmd+K and "/" open a palette over one `GET search`; Enter opens the first
// result, a click any result, each at its record's address.
const chrome = browserPerFile();

/** Letters only: a search of digits reads as a ticket number. */
const word = () => `qx${uniqueTag().replace(/\d/g, (d) => 'abcdefghij'[Number(d)] ?? 'z')}`;
const palette = (page: Page) => page.getByRole('dialog', { name: 'Search' });
const box = (page: Page) => palette(page).getByRole('textbox', { name: 'Search pages and records' });
const results = (page: Page) => palette(page).locator('[data-action]');
const path = (page: Page) => {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
};

const onDashboard = async (page: Page) => {
  await page.goto('/dashboard/');
  await heading(page, 'Dashboard');
};

describe('command palette', () => {
  it('Ctrl+K, a word only in a comment, Enter: that ticket opens in its drawer', async () => {
    const needle = word();
    const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Palette target ${uniqueTag()}` } });
    await adminApi(`tickets/${ticket.id}/comments`, { method: 'POST', body: { body: `The ${needle} alarm went off twice` } });
    const page = await chrome.open();
    await onDashboard(page);

    await page.keyboard.press('Control+k');
    await box(page).waitFor();
    await box(page).pressSequentially(needle.slice(0, 7));
    await expect.poll(() => results(page).first().textContent(), POLL).toContain(`#${ticket.id}`);
    await expect.poll(() => results(page).first().getAttribute('data-selected'), POLL).toBe('true');
    await screenshot(page, 'palette-desktop');
    await page.keyboard.press('Enter');

    await expect.poll(() => path(page), POLL).toBe(`/tickets/?id=${ticket.id}`);
    await expect.poll(() => drawerTitle(page).textContent(), POLL).toContain(ticket.title);
  });

  it('"/" opens it outside text fields, and types a slash inside them', async () => {
    const page = await chrome.open();
    await page.goto('/tickets/');
    await tableLoaded(page, 'Tickets');
    const search = page.getByRole('searchbox', { name: 'Search' });
    await search.click();
    await page.keyboard.press('/');
    expect(await search.inputValue()).toBe('/');
    expect(await palette(page).count()).toBe(0);

    await page.getByRole('heading', { level: 1 }).click();
    await page.keyboard.press('/');
    await box(page).waitFor();
    expect(await box(page).evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => palette(page).count(), POLL).toBe(0);
  });

  it('the header button opens it; a page is found by name and a click goes there', async () => {
    const page = await chrome.open(PHONE);
    await onDashboard(page);
    await page.getByRole('button', { name: 'Search' }).click();
    await box(page).fill('timesh');
    await results(page).filter({ hasText: 'Timesheet' }).first().click();
    await expect.poll(() => new URL(page.url()).pathname, POLL).toBe('/reports/timesheet');
    await heading(page, 'Timesheet');
  });

  it('an invoice line opens in its own ledger, and recent choices show in an empty box', async () => {
    const reference = `PAL-${uniqueTag()}`;
    const line = await adminApi<InvoiceLine>('invoices/gifs-azure/lines', {
      method: 'POST',
      body: { period: '2026-10', description: 'Azure palette test', quantity: 1, unitPriceCents: 100, reference },
    });
    const page = await chrome.open();
    await onDashboard(page);
    // The hit names its ledger, so the palette reads nothing more before it navigates: any read of
    // the line made while the dashboard still shows would be the palette's.
    const readsBeforeLedger: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes(`/api/v1/invoices/lines/${line.id}`) && path(page).startsWith('/dashboard/')) readsBeforeLedger.push(request.url());
    });
    await page.keyboard.press('Control+k');
    await box(page).fill(reference);
    const result = results(page).filter({ hasText: reference });
    await expect.poll(() => result.textContent(), POLL).toContain('Invoice line');
    await result.click();
    await expect.poll(() => path(page), POLL).toBe(`/invoices/gifs/azure?lineId=${line.id}`);
    expect(readsBeforeLedger).toEqual([]);

    await page.keyboard.press('Control+k');
    await box(page).waitFor();
    await expect.poll(() => results(page).first().textContent(), POLL).toContain(reference);
  });
});
