import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { InvoiceLine, LinePage } from '../../src/shared/types';
import { PHONE, POLL, adminApi, apiResponse, browserPerFile, drawer, heading, makeAccount, screenshot, tableLoaded, tableRows, toast, uniqueTag } from './fixtures';

// Ledger editing (README "Ledger editing"): New line, delete a draft, approve drafts at once.

const chrome = browserPerFile();

// A month of its own, far ahead of the demo data, so the ledger's filtered list holds this test's lines only.
const ownPeriod = () => `${2040 + randomInt(50)}-${String(1 + randomInt(12)).padStart(2, '0')}`;
const TITLE = '3D Tracking';

const linesOf = async (period: string) => (await adminApi<LinePage>(`invoices/3dtracking/lines?period=${period}&pageSize=100`)).items;

describe('ledger editing', () => {
  it('creates a line with New line, approves two drafts at once and deletes the third', async () => {
    const period = ownPeriod();
    const tag = uniqueTag();
    const billing = await makeAccount('billing', 'Bill');
    for (const n of [1, 2]) {
      await adminApi('invoices/3dtracking/lines', { method: 'POST', body: { period, description: `Units ${tag} ${n}`, quantity: n, unitPriceCents: 100 } });
    }
    const page = await chrome.open(undefined, { as: billing });
    await page.goto(`/invoices/3dtracking/?period=${period}`);
    await heading(page, TITLE);
    await tableLoaded(page, `${TITLE} lines`);
    await expect.poll(() => tableRows(page, `${TITLE} lines`).count(), POLL).toBe(2);

    await page.getByRole('button', { name: 'New line', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'New line' });
    await dialog.getByLabel('Description').fill(`Units ${tag} 3`);
    await dialog.getByLabel('Quantity').fill('3');
    await dialog.getByLabel('Unit price').fill('12.50');
    const created = apiResponse(page, /^invoices\/3dtracking\/lines$/, 'POST');
    await dialog.getByRole('button', { name: 'Create line' }).click();
    expect((await created).status()).toBe(201);
    await toast(page, 'success', 'Line created').waitFor();
    await expect.poll(() => tableRows(page, `${TITLE} lines`).count(), POLL).toBe(3);
    const third = (await linesOf(period)).find((line) => line.description === `Units ${tag} 3`);
    expect(third).toMatchObject({ period, quantity: 3, unitPriceCents: 1250, amountCents: 3750, status: 'draft' });
    // The new line opens in the drawer; close it to work on the list.
    await drawer(page).getByRole('button', { name: 'Delete line' }).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count(), POLL).toBe(0);

    for (const n of [1, 2]) await page.getByRole('checkbox', { name: new RegExp(`^Select Units ${tag} ${n} `) }).check();
    const approved = apiResponse(page, /^invoices\/lines\/approve$/, 'POST');
    await page.getByRole('button', { name: 'Approve selected (2)' }).click();
    expect((await approved).status()).toBe(200);
    await toast(page, 'success', '2 lines approved').waitFor();
    await expect.poll(async () => (await linesOf(period)).map((l) => [l.description, l.status]).sort(), POLL).toEqual([
      [`Units ${tag} 1`, 'approved'],
      [`Units ${tag} 2`, 'approved'],
      [`Units ${tag} 3`, 'draft'],
    ]);
    // Approved lines offer no box any more; the draft still does.
    await expect.poll(() => page.getByRole('checkbox', { name: /^Select Units/ }).count(), POLL).toBe(1);
    await screenshot(page, 'ledger-editing-desktop');

    await tableRows(page, `${TITLE} lines`).filter({ hasText: `Units ${tag} 3` }).click();
    await drawer(page).getByRole('button', { name: 'Delete line' }).click();
    const removed = apiResponse(page, new RegExp(`^invoices/lines/${third?.id}$`), 'DELETE');
    await page.getByRole('dialog', { name: 'Delete this draft line?' }).getByRole('button', { name: 'Delete', exact: true }).click();
    expect((await removed).status()).toBe(204);
    await toast(page, 'success', 'Line deleted').waitFor();
    await expect.poll(() => tableRows(page, `${TITLE} lines`).count(), POLL).toBe(2);
    expect((await linesOf(period)).map((l) => l.id)).not.toContain(third?.id);
  });

  it('shows no editing to staff, and the selection fits a phone', async () => {
    const period = ownPeriod();
    await adminApi<InvoiceLine>('invoices/3dtracking/lines', { method: 'POST', body: { period, description: `Phone ${uniqueTag()}`, quantity: 1, unitPriceCents: 100 } });
    const staff = await makeAccount('staff', 'Stan');
    const page = await chrome.open(PHONE, { as: staff });
    await page.goto(`/invoices/3dtracking/?period=${period}`);
    await tableLoaded(page, `${TITLE} lines`);
    expect(await page.getByRole('button', { name: 'New line' }).count()).toBe(0);
    expect(await page.getByRole('checkbox').count()).toBe(0);

    const billing = await makeAccount('billing', 'Bea');
    const phone = await chrome.open(PHONE, { as: billing });
    await phone.goto(`/invoices/3dtracking/?period=${period}`);
    await tableLoaded(phone, `${TITLE} lines`);
    await phone.getByRole('button', { name: 'Select drafts on this page' }).click();
    const approve = phone.getByRole('button', { name: 'Approve selected (1)' });
    await approve.waitFor();
    const box = await approve.boundingBox();
    expect((box?.x ?? -1) + (box?.width ?? 1000)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(phone, 'ledger-editing-phone');
  });
});
