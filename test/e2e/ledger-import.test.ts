import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { THEME_STORAGE_KEY } from '../../src/client/lib/constants';
import type { Company, LinePage } from '../../src/shared/types';
import { DESKTOP, PHONE, POLL, adminApi, apiResponse, browserPerFile, expectText, heading, makeAccount, screenshot, toast, uniqueTag } from './fixtures';

// Ledger import (README "Ledger imports"): preview with an error row, import, undo.

const chrome = browserPerFile();

const linesOf = async (period: string) => (await adminApi<LinePage>(`invoices/autofi/lines?period=${period}&pageSize=100`)).items;

describe('ledger import', () => {
  it('previews a file with an error on its row and field, imports the fixed file as drafts, and undoes it', async () => {
    const tag = uniqueTag();
    const period = `${2040 + randomInt(50)}-${String(1 + randomInt(12)).padStart(2, '0')}`;
    const company = await adminApi<Company>('companies', { method: 'POST', body: { name: `Vendor ${tag}`, code: `V${tag.slice(0, 5)}` } });
    const billing = await makeAccount('billing', 'Ida');
    const page = await chrome.open(undefined, { as: billing });
    await page.goto(`/invoices/autofi/?period=${period}`);
    await heading(page, 'Autofi');
    // A month of its own: the ledger starts empty.
    await page.getByText('No invoice lines').waitFor();

    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import lines into Autofi' });
    const file = dialog.locator('input[type="file"]');
    const upload = (name: string, rows: string[]) =>
      file.setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(['period;company;description;quantity;unit_price;reference', ...rows].join('\r\n')) });
    const good = `${period};${company.name};"Trackers; ""blue""";3;12.50;${tag}-1`;

    const checked = apiResponse(page, /^invoices\/autofi\/lines\/import\?dryRun=true/, 'POST');
    await upload('vendor-bad.csv', [good, `${period};Nobody ${tag};SIMs;2;0.505;${tag}-2`]);
    expect((await checked).status()).toBe(200);
    await expectText(dialog.getByTestId('import-summary'), '2 rows: 1 valid, 0 already in the ledger (skipped), 2 problems');
    const preview = dialog.getByRole('table', { name: 'Preview of the first 2 rows' });
    const bad = preview.locator('tr[data-row="2"]');
    expect(await bad.getAttribute('data-invalid')).toBe('true');
    await expectText(bad.locator('td[data-field="company"]'), `Nobody ${tag}Unknown company "Nobody ${tag}"`);
    await expectText(bad.locator('td[data-field="unit_price"]'), '0.505Must have at most 2 decimal places, such as 0.50');
    expect(await preview.locator('tr[data-row="1"]').getAttribute('data-invalid')).toBeNull();
    await expectText(preview.locator('tr[data-row="1"] td[data-field="description"]'), 'Trackers; "blue"');
    expect(await dialog.getByRole('button', { name: 'Fix the problems to import' }).isDisabled()).toBe(true);
    await screenshot(page, 'ledger-import-preview-desktop');

    await upload('vendor.csv', [good, `${period};${company.code};SIMs;2;0.50;${tag}-2`]);
    await expectText(dialog.getByTestId('import-summary'), '2 rows: 2 valid, 0 already in the ledger (skipped), 0 problems');
    const imported = apiResponse(page, /^invoices\/autofi\/lines\/import\?dryRun=false/, 'POST');
    await dialog.getByRole('button', { name: 'Import 2 lines' }).click();
    expect((await imported).status()).toBe(201);
    await toast(page, 'success', 'Lines imported').waitFor();
    expect((await linesOf(period)).map((l) => [l.description, l.status, l.amountCents]).sort()).toEqual([
      ['SIMs', 'draft', 100],
      ['Trackers; "blue"', 'draft', 3750],
    ]);
    const past = dialog.getByRole('table', { name: 'Past imports' });
    const row = past.getByRole('row').filter({ hasText: 'vendor.csv' }).first();
    await row.getByText('Drafts').waitFor();

    await row.getByRole('button', { name: /^Undo the import of vendor\.csv/ }).click();
    const undone = apiResponse(page, /^invoices\/imports\/\d+$/, 'DELETE');
    await page.getByRole('dialog', { name: 'Undo this import?' }).getByRole('button', { name: 'Undo import' }).click();
    expect((await undone).status()).toBe(204);
    await toast(page, 'success', 'Import undone').waitFor();
    await row.getByText('Undone').waitFor();
    await expect.poll(async () => (await linesOf(period)).length, POLL).toBe(0);
    await screenshot(page, 'ledger-import-undone-desktop');
  });

  it('names both values of a corrected row, and checks the open file again after an undo', async () => {
    const tag = uniqueTag();
    const period = `${2040 + randomInt(50)}-${String(1 + randomInt(12)).padStart(2, '0')}`;
    const company = await adminApi<Company>('companies', { method: 'POST', body: { name: `Vendor ${tag}`, code: `W${tag.slice(0, 5)}` } });
    const billing = await makeAccount('billing', 'Una');
    const page = await chrome.open(undefined, { as: billing });
    await page.goto(`/invoices/autofi/?period=${period}`);
    await heading(page, 'Autofi');
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import lines into Autofi' });
    const summary = dialog.getByTestId('import-summary');
    // A spreadsheet's export: its own header spelling and money with a dollar sign and commas.
    const upload = (name: string, rows: string[]) =>
      dialog
        .locator('input[type="file"]')
        .setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(['Period,Company,Description,Quantity,Unit Price,Reference', ...rows].join('\r\n')) });
    const rows = [`${period},${company.name},Trackers,3,12.50,${tag}-1`, `${period},${company.name},Support,2,"$1,250.00",${tag}-2`];

    await upload(`${tag}.csv`, rows);
    await expectText(summary, '2 rows: 2 valid, 0 already in the ledger (skipped), 0 problems');
    const imported = apiResponse(page, /^invoices\/autofi\/lines\/import\?dryRun=false/, 'POST');
    await dialog.getByRole('button', { name: 'Import 2 lines' }).click();
    expect((await imported).status()).toBe(201);
    await toast(page, 'success', 'Lines imported').waitFor();
    expect((await linesOf(period)).map((l) => l.amountCents).sort((a, b) => a - b)).toEqual([3750, 250_000]);

    // A corrected copy: row 1's quantity is 4 now. It is a problem naming both, not a skipped duplicate.
    await upload('vendor-corrected.csv', [rows[0]?.replace(',3,', ',4,') ?? '', rows[1] ?? '']);
    await expectText(summary, '2 rows: 1 valid, 1 already in the ledger (skipped), 1 problem');
    const preview = dialog.getByRole('table', { name: 'Preview of the first 2 rows' });
    await expectText(preview.locator('tr[data-row="1"] td[data-field="quantity"]'), '4Already in the ledger with quantity 3; the file says 4');
    await expectText(preview.locator('tr[data-row="2"]').getByText('Already imported'), 'Already imported');
    expect(await dialog.getByRole('button', { name: 'Fix the problems to import' }).isDisabled()).toBe(true);
    await screenshot(page, 'ledger-import-differs-desktop');
    // The same at phone width in the dark theme (Mantine draws by this attribute): the message wraps in its cell.
    await page.setViewportSize(PHONE);
    await page.evaluate(() => document.documentElement.setAttribute('data-mantine-color-scheme', 'dark'));
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), POLL).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'ledger-import-differs-phone-dark');
    await page.evaluate(() => document.documentElement.setAttribute('data-mantine-color-scheme', 'light'));
    await page.setViewportSize(DESKTOP);

    // The same file again: nothing to import. Undo the import and the open file is checked again.
    await upload('vendor-again.csv', rows);
    await expectText(summary, '2 rows: 2 valid, 2 already in the ledger (skipped), 0 problems');
    expect(await dialog.getByRole('button', { name: 'Import 0 lines' }).isDisabled()).toBe(true);
    const past = dialog.getByRole('table', { name: 'Past imports' });
    await past.getByRole('row').filter({ hasText: `${tag}.csv` }).getByRole('button', { name: /^Undo the import of / }).click();
    const rechecked = apiResponse(page, /^invoices\/autofi\/lines\/import\?dryRun=true/, 'POST');
    await page.getByRole('dialog', { name: 'Undo this import?' }).getByRole('button', { name: 'Undo import' }).click();
    await toast(page, 'success', 'Import undone').waitFor();
    expect((await rechecked).status()).toBe(200);
    await expectText(summary, '2 rows: 2 valid, 0 already in the ledger (skipped), 0 problems');
    expect(await dialog.getByRole('button', { name: 'Import 2 lines' }).isEnabled()).toBe(true);
    // The file stays chosen through the check (Past imports never lists this name).
    await dialog.getByText('vendor-again.csv', { exact: true }).waitFor();
    await screenshot(page, 'ledger-import-rechecked-desktop');
  });

  it('fits a phone in the dark theme: the preview scrolls inside its own region, the page does not', async () => {
    const page = await chrome.open(PHONE);
    await page.addInitScript((key) => localStorage.setItem(key, 'dark'), THEME_STORAGE_KEY);
    await page.goto('/invoices/autofi/');
    await heading(page, 'Autofi');
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import lines into Autofi' });
    const csv = ['period,company,description,quantity,unit_price,reference', '2041-01,Nobody,Long description of a vendor line,2,1.005,P-1'].join('\n');
    await dialog.locator('input[type="file"]').setInputFiles({ name: 'phone.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expectText(dialog.getByTestId('import-summary'), '1 row: 0 valid, 0 already in the ledger (skipped), 2 problems');
    const region = dialog.getByRole('region', { name: 'Preview, scrolls sideways' });
    expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'ledger-import-preview-phone-dark');
  });
});
