import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import type { Company, StatementDetail, Ticket } from '../../src/shared/types';
import { DESKTOP, PHONE, location, uniqueTag } from './fixtures';
import { POLL, adminApi, browserPerFile, choose, drawer, screenshot, settled, toast } from './fixtures';

// A toast never hides a control someone needs: with a drawer open, toasts start below its header.
const chrome = browserPerFile();

describe('toasts and an open drawer', () => {
  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)("the drawer's close button takes a real click while a toast shows (%s)", async (name, viewport) => {
    const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Toast ${name} ${Date.now()}`, priority: 'normal' } });
    const page = await chrome.open(viewport);
    await page.goto(`/tickets/?id=${ticket.id}`);
    const panel = drawer(page);
    await settled(panel);
    await panel.getByRole('button', { name: /^Edit ticket #/ }).click();
    await choose(page, panel.getByLabel('Priority'), 'Urgent');
    await panel.getByRole('button', { name: 'Save ticket' }).click();
    const saved = toast(page, 'success', 'Ticket saved');
    await saved.waitFor();
    await settled(saved);
    await screenshot(page, `toast-below-drawer-header-${name}`);

    const header = await panel.locator('.mantine-Drawer-header').boundingBox();
    const card = await saved.boundingBox();
    expect(header && card).toBeTruthy();
    expect(card?.y ?? 0).toBeGreaterThanOrEqual((header?.y ?? 0) + (header?.height ?? 0));

    // No force: Playwright clicks only when the button itself would receive the click.
    expect(await saved.isVisible()).toBe(true);
    await panel.getByRole('button', { name: 'Close panel' }).click({ timeout: 3000 });
    await panel.waitFor({ state: 'hidden' });
    await expect.poll(() => location(page).params.get('id'), POLL).toBeNull();
    expect((await adminApi<Ticket>(`tickets/${ticket.id}`)).priority).toBe('urgent');
  });
});

const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

// A year nobody bills, picked per run so a kept database does not hold its statements yet.
const year = 2040 + Math.floor(Math.random() * 60);
let month = 0;
/** An open statement of one approved SLA line, in a month of its own. */
const openStatement = async () => {
  month += 1;
  const period = `${year}-${String(month).padStart(2, '0')}`;
  const company = await adminApi<Company>('companies', { method: 'POST', body: { name: `Toast Freight ${uniqueTag()}`, address: '1 Dock Road' } });
  await adminApi('invoices/gifs-sla/lines', {
    method: 'POST',
    body: { description: 'Monitoring', quantity: 1, unitPriceCents: 10_000, period, companyId: company.id, reference: 'REF-1', status: 'approved' },
  });
  return adminApi<StatementDetail>('invoices/gifs/statements', { method: 'POST', body: { period } });
};

/** Whether the toast covers any part of the button; then a real click on the button, in the toast's 4 s. */
const clickBeside = async (card: Locator, button: Locator) => {
  await settled(card);
  const [cardBox, buttonBox] = [await card.boundingBox(), await button.boundingBox()];
  if (!cardBox || !buttonBox) throw new Error('the toast or the button has no box');
  expect(overlaps(cardBox, buttonBox)).toBe(false);
  expect(await card.isVisible()).toBe(true);
  await button.click({ timeout: 2500 });
};

describe("toasts and a drawer's action buttons", () => {
  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)('"Mark paid" after Issue and "Print" take a real click while the toast shows (%s)', async (name, viewport) => {
    const statement = await openStatement();
    const page = await chrome.open(viewport);
    await page.goto(`/invoices/gifs/statement?statementId=${statement.id}`);
    const view = page.getByTestId('statement-view');
    await view.getByRole('button', { name: 'Issue statement' }).click();
    const confirm = page.getByTestId('transition-dialog');
    await confirm.getByRole('button', { name: 'Issue statement' }).click();
    const issued = toast(page, 'success', 'Statement issued');
    await issued.waitFor();
    await confirm.waitFor({ state: 'detached' });
    await screenshot(page, `toast-beside-statement-actions-${name}`);
    await clickBeside(issued, view.getByRole('button', { name: 'Mark paid' }));
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    // Print opens the browser's print dialog, which headless Chromium answers at once.
    await clickBeside(issued, view.getByRole('button', { name: 'Print' }));
  });
});
