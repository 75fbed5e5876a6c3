import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Company, InvoiceLine, StatementDetail, Ticket } from '../../src/shared/types';
import { POLL, adminApi, apiResponse, browserPerFile, drawer, modal, toast, uniqueTag } from './fixtures';

// A save inside a record drawer disables its button while the request runs; focus must come back
// into the drawer afterwards, so the keyboard (Escape, Tab) still works there.
const chrome = browserPerFile();

const focusInside = (layer: Locator) => layer.evaluate((element) => element.contains(document.activeElement) && document.activeElement !== document.body);

/** After a save: focus is in the drawer, and Escape closes it. */
const keyboardStillWorks = async (page: Page) => {
  const panel = drawer(page);
  await expect.poll(() => focusInside(panel), POLL).toBe(true);
  await page.keyboard.press('Escape');
  await expect.poll(() => page.getByRole('dialog').count(), POLL).toBe(0);
};

const openTicket = async (page: Page) => {
  const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Focus ${uniqueTag()}`, description: 'Before' } });
  await page.goto(`/tickets/?id=${ticket.id}`);
  await drawer(page).getByRole('button', { name: /^Edit ticket #/ }).click();
  const title = drawer(page).getByLabel('Title');
  await expect.poll(() => title.inputValue(), POLL).toBe(ticket.title);
  return title;
};

describe('focus after saving in a drawer', () => {
  it('a ticket saved with the save button', async () => {
    const page = await chrome.open();
    const title = await openTicket(page);
    await title.fill('Saved by the button');
    const saved = apiResponse(page, /^tickets\/\d+$/, 'PATCH');
    await drawer(page).getByRole('button', { name: 'Save ticket' }).click();
    expect((await saved).status()).toBe(200);
    await toast(page, 'success', 'Ticket saved').waitFor();
    await keyboardStillWorks(page);
  });

  it('a ticket saved with Enter in its title', async () => {
    const page = await chrome.open();
    const title = await openTicket(page);
    await title.fill('Saved by Enter');
    const saved = apiResponse(page, /^tickets\/\d+$/, 'PATCH');
    await title.press('Enter');
    expect((await saved).status()).toBe(200);
    await toast(page, 'success', 'Ticket saved').waitFor();
    await keyboardStillWorks(page);
  });

  it('an invoice line', async () => {
    const line = await adminApi<InvoiceLine>('invoices/autofi/lines', { method: 'POST', body: { period: '2013-03', description: `Trackers ${uniqueTag()}`, quantity: 2, unitPriceCents: 100, status: 'draft' } });
    const page = await chrome.open();
    await page.goto(`/invoices/autofi/?lineId=${line.id}`);
    const quantity = drawer(page).getByRole('textbox', { name: 'Quantity' });
    await expect.poll(() => quantity.inputValue(), POLL).toBe('2');
    await quantity.fill('3');
    const saved = apiResponse(page, new RegExp(`^invoices/lines/${line.id}$`), 'PATCH');
    await drawer(page).getByRole('button', { name: 'Save line' }).click();
    expect((await saved).status()).toBe(200);
    await toast(page, 'success', 'Line saved').waitFor();
    await keyboardStillWorks(page);
  });

  it('"Mark paid" on a statement, confirmed in its dialog', async () => {
    const company = await adminApi<Company>('companies', { method: 'POST', body: { name: `Focus Freight ${uniqueTag()}` } });
    const period = `2012-${String(1 + Math.floor(Math.random() * 12)).padStart(2, '0')}`;
    await adminApi<InvoiceLine>('invoices/gifs-sla/lines', { method: 'POST', body: { period, companyId: company.id, description: 'SLA', quantity: 1, unitPriceCents: 5000, status: 'approved' } });
    const open = await adminApi<StatementDetail>('invoices/gifs/statements', { method: 'POST', body: { period, companyId: company.id } });
    await adminApi(`invoices/gifs/statements/${open.id}`, { method: 'PATCH', body: { status: 'issued', from: 'open' } });
    const page = await chrome.open();
    await page.goto(`/invoices/gifs/statement?statementId=${open.id}`);
    await drawer(page).getByRole('button', { name: 'Mark paid' }).click();
    await page.getByTestId('transition-dialog').waitFor();
    const moved = apiResponse(page, new RegExp(`^invoices/gifs/statements/${open.id}$`), 'PATCH');
    await modal(page).getByRole('button', { name: 'Mark paid' }).click();
    expect((await moved).status()).toBe(200);
    await page.getByTestId('transition-dialog').waitFor({ state: 'hidden' });
    await expect.poll(() => page.getByRole('dialog').count(), POLL).toBe(1);
    await keyboardStillWorks(page);
  });
});
