import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { InvoiceLine, LinePage, Page as ListPage, Statement, StatementDetail } from '../../src/shared/types';
import {
  PHONE,
  POLL,
  adminApi,
  adminApiAnswer,
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
  modal,
  moneyInPage,
  numberInPage,
  screenshot,
  statementStatus,
  stat,
  tableLoaded,
  tableRows,
  textOf,
  thisMonthUtc,
  toast,
  toastText,
  uniqueTag,
} from './fixtures';

const chrome = browserPerFile();

const CSV_HEADER = 'id,source,period,company,description,quantity,unit_price,amount,reference,status,statement_id';

const lines = (source: string, query = '') => adminApi<LinePage>(`invoices/${source}/lines${query}`);
const statements = () => adminApi<ListPage<Statement>>('invoices/gifs/statements?pageSize=200');

/** The month before this one, as YYYY-MM (its autofi lines are all approved in the demo data). */
const lastMonth = () => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
};

/** A month's name as the page's period picker spells it (in the browser's locale). */
const periodLabelInPage = (page: Page, period: string) =>
  page.evaluate((p) => new Date(`${p}-01T00:00:00Z`).toLocaleDateString(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' }), period);

/** The three stat cards of a ledger, as the page shows them. */
const ledgerStats = async (page: Page) => ({
  lines: await textOf(stat(page, 'stat-lines')),
  quantity: await textOf(stat(page, 'stat-quantity')),
  total: await textOf(stat(page, 'stat-total')),
});

/** The stat cards a ledger should show for the API's totals. */
const expectedStats = async (page: Page, totals: LinePage['totals']) => ({
  lines: await numberInPage(page, totals.lines),
  quantity: await numberInPage(page, totals.quantity),
  total: await moneyInPage(page, totals.amountCents),
});

const openLedger = async (page: Page, path: string, title: string) => {
  await page.goto(path);
  await heading(page, title);
  await tableLoaded(page, `${title} lines`);
};

/** Picks a month in the ledger's Period filter and waits for the filtered list. */
const choosePeriod = async (page: Page, source: string, title: string, period: string) => {
  const answered = apiResponse(page, new RegExp(`^invoices/${source}/lines\\?.*period=${period}`));
  await choose(page, page.getByRole('combobox', { name: 'Period' }), await periodLabelInPage(page, period));
  await answered;
  await tableLoaded(page, `${title} lines`);
};

describe('autofi ledger', () => {
  it('shows the lines and the totals the API reports', async () => {
    const all = await lines('autofi');
    const page = await chrome.open();
    await openLedger(page, '/invoices/autofi/', 'Autofi');
    await expect.poll(() => ledgerStats(page), POLL).toEqual(await expectedStats(page, all.totals));
    expect(all.totals.lines).toBeGreaterThan(25);
    expect(await tableRows(page, 'Autofi lines').count()).toBe(all.items.length);
    const firstRow = await textOf(tableRows(page, 'Autofi lines').first());
    expect(firstRow).toContain(all.items[0]?.description ?? 'a description');
    expect(firstRow).toContain(await moneyInPage(page, all.items[0]?.amountCents ?? -1));
    await screenshot(page, 'invoices-autofi-desktop');
  });

  it("filtering by a period changes the totals to the API's totals for that period", async () => {
    const period = lastMonth();
    const [all, month] = [await lines('autofi'), await lines('autofi', `?period=${period}&pageSize=200`)];
    expect(month.totals.lines).toBeGreaterThan(0);
    expect(month.totals.lines).toBeLessThan(all.totals.lines);
    const page = await chrome.open();
    await openLedger(page, '/invoices/autofi/', 'Autofi');
    await expect.poll(() => ledgerStats(page), POLL).toEqual(await expectedStats(page, all.totals));
    await choosePeriod(page, 'autofi', 'Autofi', period);
    await expect.poll(() => ledgerStats(page), POLL).toEqual(await expectedStats(page, month.totals));
    const periods = await tableRows(page, 'Autofi lines').locator('td:first-child').allTextContents();
    expect(periods).toHaveLength(month.totals.lines);
    expect(new Set(periods)).toEqual(new Set([await periodLabelInPage(page, period)]));
    await page.getByText(await periodLabelInPage(page, period), { exact: true }).first().waitFor();
  });

  it('opens ?lineId=<draft line>, and a new Quantity saves with amount = quantity × unit price', async () => {
    const line = await adminApi<InvoiceLine>('invoices/autofi/lines', {
      method: 'POST',
      body: { period: thisMonthUtc(), description: `E2E tracking units ${uniqueTag()}`, quantity: 4, unitPriceCents: 1234, reference: 'E2E-REF', status: 'draft' },
    });
    expect(line.status).toBe('draft');
    const page = await chrome.open();
    await page.goto(`/invoices/autofi/?lineId=${line.id}`);
    await heading(page, 'Autofi');
    const panel = drawer(page);
    await expectText(drawerTitle(page), line.description);
    await expectText(panel.getByTestId('line-amount'), await moneyInPage(page, 4 * 1234));

    await panel.getByLabel('Quantity').fill('7');
    const saved = apiResponse(page, new RegExp(`^invoices/lines/${line.id}$`), 'PATCH');
    await panel.getByRole('button', { name: 'Save line' }).click();
    expect((await saved).status()).toBe(200);
    const expected = await moneyInPage(page, 7 * 1234);
    const success = toast(page, 'success', 'Line saved');
    await success.waitFor();
    expect(await toastText(success)).toBe(`Line saved | ${expected}`);
    await expectText(panel.getByTestId('line-amount'), expected);
    const stored = await adminApi<InvoiceLine>(`invoices/lines/${line.id}`);
    expect([stored.quantity, stored.unitPriceCents, stored.amountCents]).toEqual([7, 1234, 8638]);
    await screenshot(page, 'invoices-line-drawer-desktop');
  });

  it("Export CSV downloads the filter's lines under the documented header", async () => {
    const period = lastMonth();
    const month = await lines('autofi', `?period=${period}&pageSize=200`);
    const page = await chrome.open();
    await openLedger(page, '/invoices/autofi/', 'Autofi');
    await choosePeriod(page, 'autofi', 'Autofi', period);
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`autofi-${period}-lines.csv`);
    const text = await downloadText(download);
    expect(text.startsWith('\ufeff')).toBe(true);
    const rows = csvLines(text);
    expect(rows[0]).toBe(CSV_HEADER);
    expect(rows.length - 1).toBe(month.totals.lines);
    const ids = rows.slice(1).map((row) => Number(row.split(',')[0]));
    expect(new Set(ids)).toEqual(new Set(month.items.map((l) => l.id)));
    for (const row of rows.slice(1)) expect(row.split(',').slice(1, 3)).toEqual(['autofi', period]);
  });
});

describe('GIFS statements', () => {
  it("/invoices/gifs/statement?statementId=<id> shows the statement total the API reports", async () => {
    const [latest] = (await statements()).items;
    if (!latest) throw new Error('the demo data has no GIFS statements');
    const detail = await adminApi<StatementDetail>(`invoices/gifs/statements/${latest.id}`);
    const page = await chrome.open();
    await page.goto(`/invoices/gifs/statement?statementId=${latest.id}`);
    await heading(page, 'GIFS statements');
    await expectText(drawerTitle(page), `Statement ${latest.number}`);
    const view = page.getByTestId('statement-view');
    await expectText(view.getByTestId('statement-total'), await moneyInPage(page, detail.totalCents));
    expect(detail.totalCents).toBe(detail.lines.reduce((sum, l) => sum + l.amountCents, 0));
    expect(await view.getByRole('table', { name: 'Statement lines' }).locator('tbody tr').count()).toBe(detail.lines.length);
    await screenshot(page, 'invoices-statement-desktop');
  });

  it("'Generate statement' bills this month; 'Issue statement' and 'Mark paid' each confirm first; generating again has nothing left", async () => {
    const month = thisMonthUtc();
    expect((await statements()).items.map((s) => s.period)).not.toContain(month);
    const [sla, azure] = [await lines('gifs-sla', `?period=${month}&status=approved`), await lines('gifs-azure', `?period=${month}&status=approved`)];
    expect(sla.totals.lines + azure.totals.lines).toBeGreaterThan(0);
    const expectedTotal = sla.totals.amountCents + azure.totals.amountCents;

    const page = await chrome.open();
    await page.goto('/invoices/gifs/statement');
    await heading(page, 'GIFS statements');
    await tableLoaded(page, 'Statements');
    const label = await periodLabelInPage(page, month);

    await page.getByRole('button', { name: 'Generate statement' }).click();
    const dialog = modal(page);
    await choose(page, dialog.getByRole('combobox', { name: 'Month' }), label);
    const posted = apiResponse(page, /^invoices\/gifs\/statements$/, 'POST');
    await dialog.getByRole('button', { name: 'Generate' }).click();
    const response = await posted;
    expect(response.status()).toBe(201);
    const created = (await response.json()) as StatementDetail;
    expect(created.totalCents).toBe(expectedTotal);
    expect(created.number).toBe(`GIFS-${month}-1`);
    await toast(page, 'success', 'Statement generated').waitFor();
    await page.waitForURL((url) => url.searchParams.get('statementId') === String(created.id));
    const view = page.getByTestId('statement-view');
    const total = await moneyInPage(page, expectedTotal);
    await expectText(view.getByTestId('statement-total'), total);
    await expectText(statementStatus(view), 'Open');
    await screenshot(page, 'invoices-statement-generated-desktop');

    // Issue: the dialog names the statement, company, period and total, and warns that the month is not over.
    await view.getByRole('button', { name: 'Issue statement' }).click();
    const confirm = page.getByTestId('transition-dialog');
    await confirm.waitFor();
    const question = await textOf(confirm.locator('p').first());
    expect(question).toBe(`Issue statement ${created.number} to ${created.companyName} for ${label}?`);
    await expectText(confirm.getByTestId('transition-total'), total);
    // One of the dialog's notes (another may name time not yet approved).
    await expect.poll(() => confirm.getByRole('alert').filter({ hasText: `${label} has not ended yet` }).count(), POLL).toBe(1);
    await screenshot(page, 'invoices-statement-issue-dialog-desktop');
    const issuing = apiResponse(page, new RegExp(`^invoices/gifs/statements/${created.id}$`), 'PATCH');
    await confirm.getByRole('button', { name: 'Issue statement' }).click();
    expect((await issuing).request().postDataJSON()).toEqual({ status: 'issued', from: 'open' });
    await toast(page, 'success', 'Statement issued').waitFor();
    await expectText(statementStatus(view), 'Issued');

    await view.getByRole('button', { name: 'Mark paid' }).click();
    await expectText(confirm.locator('p').first(), `Record a payment of ${await moneyInPage(page, created.totalCents)} from ${created.companyName}, dated today, and mark statement ${created.number} for ${label} paid?`);
    expect(await confirm.getByRole('alert').count()).toBe(0);
    const paying = apiResponse(page, new RegExp(`^invoices/gifs/statements/${created.id}$`), 'PATCH');
    await confirm.getByRole('button', { name: 'Mark paid' }).click();
    expect((await paying).request().postDataJSON()).toEqual({ status: 'paid', from: 'issued' });
    await toast(page, 'success', 'Statement marked paid').waitFor();
    await expectText(statementStatus(view), 'Paid');
    expect(await view.getByRole('button', { name: /Mark|Issue|Void/ }).count()).toBe(0);
    const stored = await adminApi<StatementDetail>(`invoices/gifs/statements/${created.id}`);
    expect(stored.status).toBe('paid');
    expect(stored.issuedAt).not.toBeNull();
    // Its lines are billed now: each is invoiced and belongs to the statement.
    expect(stored.lines.length).toBe(sla.totals.lines + azure.totals.lines);
    const live = await Promise.all(stored.lines.map((l) => adminApi<InvoiceLine>(`invoices/lines/${l.id}`)));
    expect(new Set(live.map((l) => [l.status, l.statementId].join()))).toEqual(new Set([`invoiced,${created.id}`]));

    await page.getByRole('button', { name: 'Close panel' }).click();
    await page.waitForURL((url) => !url.searchParams.has('statementId'));
    // The pointer resting on "Statement marked paid" holds it up over the page's actions; Escape clears it.
    await page.keyboard.press('Escape');
    await toast(page, 'success', 'Statement marked paid').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Generate statement' }).click();
    await choose(page, modal(page).getByRole('combobox', { name: 'Month' }), label);
    const again = apiResponse(page, /^invoices\/gifs\/statements$/, 'POST');
    await modal(page).getByRole('button', { name: 'Generate' }).click();
    expect((await again).status()).toBe(400);
    const error = toast(page, 'error', 'Statement not generated');
    await error.waitFor();
    expect(await toastText(error)).toBe(`Statement not generated | Nothing to bill for ${month}: no approved GIFS SLA or Azure lines are waiting for a statement`);
    expect((await statements()).items.filter((s) => s.period === month)).toHaveLength(1);
  });

  it('/invoices/gifs shows the overview cards with the API figures', async () => {
    const month = thisMonthUtc();
    const [sla, azure, recent] = [await lines('gifs-sla', `?period=${month}`), await lines('gifs-azure', `?period=${month}`), await adminApi<ListPage<Statement>>('invoices/gifs/statements?page=1&pageSize=12')];
    // Open statements are the ones not settled: not yet issued, or issued with a balance. Paid and
    // void ones (the demo data has both) are not counted, nor is the card limited to recent ones.
    const every = await adminApi<ListPage<Statement>>('invoices/gifs/statements?page=1&pageSize=200');
    expect(every.total).toBeLessThanOrEqual(200);
    const owed = every.items.filter((s) => s.status === 'issued' && s.balanceCents > 0);
    const toIssue = every.items.filter((s) => s.status === 'open').length;
    const outstanding = owed.reduce((sum, s) => sum + s.balanceCents, 0);
    expect(every.items.some((s) => s.status === 'paid') && every.items.some((s) => s.status === 'void')).toBe(true);
    const page = await chrome.open();
    await page.goto('/invoices/gifs');
    await heading(page, 'GIFS');
    await expectText(stat(page, 'stat-sla-this-month'), await moneyInPage(page, sla.totals.amountCents));
    await expectText(stat(page, 'stat-azure-this-month'), await moneyInPage(page, azure.totals.amountCents));
    await expectText(stat(page, 'stat-outstanding'), await moneyInPage(page, outstanding));
    await expectText(stat(page, 'stat-open-statements'), String(toIssue + owed.length));
    expect(toIssue + owed.length).toBeLessThan(every.total);
    await page.getByText(`${toIssue} to issue, ${owed.length} awaiting payment`).waitFor();
    expect(recent.total).toBeGreaterThanOrEqual(10);
    const cards = page.locator('a[href^="/invoices/gifs/statement?statementId="]');
    await expect.poll(() => cards.count(), POLL).toBe(Math.min(6, recent.items.length));
    expect(await cards.first().getAttribute('href')).toBe(`/invoices/gifs/statement?statementId=${recent.items[0]?.id}`);
    expect(await page.getByRole('tab', { name: 'Overview' }).getAttribute('aria-selected')).toBe('true');
    await screenshot(page, 'invoices-gifs-desktop');
  });
});

describe('other ledgers', () => {
  it.each([
    { path: '/invoices/gifs/sla', source: 'gifs-sla', title: 'GIFS SLA', tab: 'SLA' },
    { path: '/invoices/gifs/azure', source: 'gifs-azure', title: 'GIFS Azure', tab: 'Azure' },
    { path: '/invoices/3dtracking/', source: '3dtracking', title: '3D Tracking', tab: null },
  ])('$path renders its lines and totals', async ({ path, source, title, tab }) => {
    const all = await lines(source);
    expect(all.total).toBeGreaterThan(0);
    const page = await chrome.open();
    await openLedger(page, path, title);
    expect(await tableRows(page, `${title} lines`).count()).toBe(all.items.length);
    expect(await textOf(tableRows(page, `${title} lines`).first())).toContain(all.items[0]?.description ?? 'a description');
    await expect.poll(() => ledgerStats(page), POLL).toEqual(await expectedStats(page, all.totals));
    if (tab) expect(await page.getByRole('tab', { name: tab }).getAttribute('aria-selected')).toBe('true');
    await screenshot(page, `invoices-${source}-desktop`);
  });
});

describe('invoices at phone width', () => {
  it('the SLA, Azure and 3D Tracking ledgers render their h1 and rows', async () => {
    const page = await chrome.open(PHONE);
    for (const { path, title, name } of [
      { path: '/invoices/gifs/sla', title: 'GIFS SLA', name: 'gifs-sla' },
      { path: '/invoices/gifs/azure', title: 'GIFS Azure', name: 'gifs-azure' },
      { path: '/invoices/3dtracking/', title: '3D Tracking', name: '3dtracking' },
    ]) {
      await openLedger(page, path, title);
      expect(await tableRows(page, `${title} lines`).count()).toBeGreaterThan(0);
      await screenshot(page, `invoices-${name}-phone`);
    }
  });

  it('the autofi ledger renders its h1 and a line drawer fills the screen', async () => {
    const { items } = await lines('autofi');
    const page = await chrome.open(PHONE);
    await openLedger(page, '/invoices/autofi/', 'Autofi');
    await screenshot(page, 'invoices-autofi-phone');
    await page.goto(`/invoices/autofi/?lineId=${items[0]?.id}`);
    await heading(page, 'Autofi');
    await expectText(drawerTitle(page), items[0]?.description ?? 'a description');
    await expectFullWidthDrawer(page);
    await screenshot(page, 'invoices-line-drawer-phone');
  });

  it('the statements page renders its h1 and a statement drawer fills the screen', async () => {
    const [latest] = (await statements()).items;
    const page = await chrome.open(PHONE);
    await page.goto('/invoices/gifs');
    await heading(page, 'GIFS');
    await screenshot(page, 'invoices-gifs-phone');
    await page.goto(`/invoices/gifs/statement?statementId=${latest?.id}`);
    await heading(page, 'GIFS statements');
    await expectText(drawerTitle(page), `Statement ${latest?.number}`);
    await expectFullWidthDrawer(page);
    await screenshot(page, 'invoices-statement-phone');
    expect((await adminApiAnswer(`invoices/gifs/statements/${latest?.id}`)).status).toBe(200);
  });
});
