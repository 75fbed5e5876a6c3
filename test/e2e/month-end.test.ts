import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { THEME_STORAGE_KEY } from '../../src/client/lib/constants';
import type { AgingSummary, Company, InvoiceLine, StatementDetail } from '../../src/shared/types';
import { DESKTOP, PHONE, POLL, adminApi, browserPerFile, choose, expectText, heading, modal, moneyInPage, screenshot, settled, statementStatus, textOf, toast, toastText, uniqueTag } from './fixtures';

const chrome = browserPerFile();

let nextMonth = 0;
/** A month of its own for each statement (years nobody else bills). */
const freshPeriod = () => {
  nextMonth += 1;
  return `20${String(60 + Math.floor(nextMonth / 12)).padStart(2, '0')}-${String((nextMonth % 12) + 1).padStart(2, '0')}`;
};

/** An issued statement of two approved lines for a company of its own. */
const issuedStatement = async () => {
  const company = await adminApi<Company>('companies', { method: 'POST', body: { name: `Quay Logistics ${uniqueTag()}`, address: '4 Quay Street' } });
  const period = freshPeriod();
  const lines = [
    { source: 'gifs-sla', description: `Managed SLA ${uniqueTag()}`, quantity: 1, unitPriceCents: 450_000 },
    { source: 'gifs-azure', description: `Azure compute ${uniqueTag()}`, quantity: 7, unitPriceCents: 18_015 },
  ];
  for (const { source, ...line } of lines) {
    await adminApi<InvoiceLine>(`invoices/${source}/lines`, { method: 'POST', body: { ...line, period, companyId: company.id, reference: 'PO-77', status: 'approved' } });
  }
  const opened = await adminApi<StatementDetail>('invoices/gifs/statements', { method: 'POST', body: { period } });
  return adminApi<StatementDetail>(`invoices/gifs/statements/${opened.id}`, { method: 'PATCH', body: { status: 'issued', from: 'open' } });
};

const openStatement = async (page: Page, id: number) => {
  await page.goto(`/invoices/gifs/statement?statementId=${id}`);
  await heading(page, 'GIFS statements');
  const view = page.getByTestId('statement-view');
  await view.waitFor();
  return view;
};

const pdfText = (file: string) => execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/[ \t]+/g, ' ');

describe('an issued statement is a document', () => {
  it('a void keeps its lines struck through and its total, on screen and on paper, whatever happens to the live lines', async () => {
    const statement = await issuedStatement();
    const page = await chrome.open();
    const view = await openStatement(page, statement.id);
    await view.getByRole('button', { name: 'Void statement' }).click();
    const dialog = page.getByTestId('transition-dialog');
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Billed at the wrong rate');
    await dialog.getByRole('button', { name: 'Void statement' }).click();
    await toast(page, 'success', 'Statement voided').waitFor();
    await expectText(statementStatus(view), 'Void');

    // The live lines go back to be billed again, and are billed again at another price.
    const [first] = statement.lines;
    await adminApi(`invoices/lines/${first!.id}`, { method: 'PATCH', body: { quantity: 3 } });
    await adminApi('invoices/gifs/statements', { method: 'POST', body: { period: statement.period } });
    await page.reload();
    await view.waitFor();

    const table = view.getByRole('table', { name: 'Statement lines' });
    for (const line of statement.lines) await expect.poll(() => textOf(table), POLL).toContain(line.description);
    await expectText(view.getByTestId('statement-total'), await moneyInPage(page, statement.totalCents));
    const decorations = await table.locator('tbody td, tfoot th:last-child').evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell).textDecorationLine));
    expect(new Set(decorations)).toEqual(new Set(['line-through']));
    expect(await textOf(view.getByRole('alert'))).toContain('Billed at the wrong rate');
    await screenshot(page, 'month-end-void-copy-desktop');

    mkdirSync('test-results', { recursive: true });
    const file = 'test-results/month-end-void.pdf';
    writeFileSync(file, await page.pdf({ format: 'A4', printBackground: true }));
    const text = pdfText(file);
    for (const part of ['VOID', 'Billed at the wrong rate', `Total billed (void) ${await moneyInPage(page, statement.totalCents)}`, ...statement.lines.map((l) => l.description)]) {
      expect(text, part).toContain(part);
    }
    for (const line of statement.lines) expect(text).toContain(await moneyInPage(page, line.amountCents));
    // A void document asks for no payment: no amount due, no payment terms.
    expect(text).toContain('This statement is void and asks for no payment.');
    for (const absent of ['Total due', 'Balance due', 'Please quote', 'with your payment']) expect(text, absent).not.toContain(absent);
    execFileSync('pdftoppm', ['-png', '-r', '70', '-f', '1', '-l', '1', '-singlefile', file, 'test-results/month-end-void-print']);
  });
});

describe('payments', () => {
  it('a partial payment leaves a balance; "Mark paid" confirms the balance and pays the rest', async () => {
    const statement = await issuedStatement();
    const page = await chrome.open();
    const view = await openStatement(page, statement.id);
    await view.getByRole('button', { name: 'Record payment' }).click();
    const form = modal(page);
    await form.getByRole('textbox', { name: 'Amount' }).fill('1000.00');
    await choose(page, form.getByRole('combobox', { name: 'Method' }), 'Card');
    await form.getByRole('textbox', { name: 'Reference' }).fill('AUTH-5531');
    await screenshot(page, 'month-end-record-payment-desktop');
    await form.getByRole('button', { name: 'Record payment' }).click();
    await toast(page, 'success', 'Payment recorded').waitFor();

    const balance = statement.totalCents - 100_000;
    await expectText(view.getByTestId('statement-balance'), await moneyInPage(page, balance));
    await expectText(statementStatus(view), 'Partially paid');

    // On paper: the total, what was paid and the balance still due.
    const file = 'test-results/month-end-partly-paid.pdf';
    mkdirSync('test-results', { recursive: true });
    writeFileSync(file, await page.pdf({ format: 'A4', printBackground: true }));
    const text = pdfText(file);
    for (const part of [
      `Total ${await moneyInPage(page, statement.totalCents)}`,
      `Paid −${await moneyInPage(page, 100_000)}`,
      `Balance due ${await moneyInPage(page, balance)}`,
      `Please quote ${statement.number} with your payment`,
    ]) {
      expect(text, part).toContain(part);
    }
    expect(text).not.toContain('Total due');
    execFileSync('pdftoppm', ['-png', '-r', '70', '-f', '1', '-l', '1', '-singlefile', file, 'test-results/month-end-partly-paid-print']);
    const payments = view.getByRole('table', { name: 'Payments' });
    expect(await textOf(payments)).toContain('AUTH-5531');

    await view.getByRole('button', { name: 'Mark paid' }).click();
    const dialog = page.getByTestId('transition-dialog');
    await expect.poll(() => textOf(dialog.locator('p').first()), POLL).toContain(`Record a payment of ${await moneyInPage(page, balance)}`);
    await dialog.getByRole('button', { name: 'Mark paid' }).click();
    await toast(page, 'success', 'Statement marked paid').waitFor();
    await expectText(statementStatus(view), 'Paid');
    await expect.poll(() => payments.locator('tbody tr').count(), POLL).toBe(2);
    await screenshot(page, 'month-end-paid-desktop');

    const stored = await adminApi<StatementDetail>(`invoices/gifs/statements/${statement.id}`);
    expect(stored).toMatchObject({ status: 'paid', balanceCents: 0, paidCents: statement.totalCents });
    expect(stored.payments.map((p) => [p.amountCents, p.method, p.reference])).toEqual([
      [100_000, 'card', 'AUTH-5531'],
      [balance, 'other', 'Marked paid'],
    ]);
  });

  it('a payment above the balance is refused next to the field and nothing is recorded', async () => {
    const statement = await issuedStatement();
    const page = await chrome.open();
    const view = await openStatement(page, statement.id);
    await view.getByRole('button', { name: 'Record payment' }).click();
    const form = modal(page);
    await form.getByRole('textbox', { name: 'Amount' }).fill('0');
    await form.getByRole('button', { name: 'Record payment' }).click();
    await expect.poll(() => form.getByText('Must be more than zero').count(), POLL).toBe(1);
    await form.getByRole('textbox', { name: 'Amount' }).fill(String(statement.totalCents / 100 + 1));
    await form.getByRole('button', { name: 'Record payment' }).click();
    await toast(page, 'error', 'Payment not recorded').waitFor();
    expect((await adminApi<StatementDetail>(`invoices/gifs/statements/${statement.id}`)).payments).toEqual([]);
  });

  it('"Partially paid" is a status the list shows and filters by, kept in the address', async () => {
    const [partly, untouched] = [await issuedStatement(), await issuedStatement()];
    await adminApi(`invoices/gifs/statements/${partly.id}/payments`, { method: 'POST', body: { paidOn: '2026-11-03', amountCents: 10_000, method: 'bank' } });
    const page = await chrome.open();
    await page.goto('/invoices/gifs/statement');
    await heading(page, 'GIFS statements');
    await choose(page, page.getByRole('combobox', { name: 'Status' }), 'Partially paid');
    await expect.poll(() => new URL(page.url()).searchParams.get('state'), POLL).toBe('partial');
    const table = page.getByRole('table', { name: 'Statements' });
    const row = table.getByRole('row').filter({ hasText: partly.number });
    await row.waitFor();
    expect(await textOf(row)).toContain('Partially paid');
    expect(await table.getByRole('row').filter({ hasText: untouched.number }).count()).toBe(0);
    await screenshot(page, 'month-end-partly-paid-filter-desktop');
    // The same view after a reload, and the Issued filter keeps only those with nothing paid.
    await page.goto('/invoices/gifs/statement?state=issued');
    await table.getByRole('row').filter({ hasText: untouched.number }).waitFor();
    expect(await table.getByRole('row').filter({ hasText: partly.number }).count()).toBe(0);
  });

  it('the aging cards show the figures of the aging summary, and the phone layout holds them', async () => {
    await issuedStatement();
    const page = await chrome.open();
    await page.goto('/invoices/gifs/statement');
    await heading(page, 'GIFS statements');
    const aging = await adminApi<AgingSummary>('invoices/gifs/statements/aging');
    const cards = page.getByTestId('aging');
    await expect.poll(() => cards.getAttribute('aria-busy'), POLL).toBe('false');
    const labels = { current: 'not-yet-due', days1to30: '1-30-days-overdue', days31to60: '31-60-days-overdue', days61to90: '61-90-days-overdue', days90plus: 'over-90-days-overdue' } as const;
    for (const [bucket, id] of Object.entries(labels) as [keyof typeof labels, string][]) {
      await expectText(cards.getByTestId(`stat-${id}`), await moneyInPage(page, aging.buckets[bucket].balanceCents));
    }
    expect(aging.buckets.current.balanceCents).toBeGreaterThan(0);
    await screenshot(page, 'month-end-aging-desktop');
    await page.setViewportSize(PHONE);
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), POLL).toBe(true);
    await screenshot(page, 'month-end-aging-phone');
    // The dark theme on a phone, with a statement's payments open.
    const statement = await issuedStatement();
    await adminApi(`invoices/gifs/statements/${statement.id}/payments`, { method: 'POST', body: { paidOn: '2026-11-03', amountCents: 25_000, method: 'bank', reference: 'EFT 0093' } });
    await page.evaluate((key) => localStorage.setItem(key, 'dark'), THEME_STORAGE_KEY);
    const view = await openStatement(page, statement.id);
    await view.getByRole('table', { name: 'Payments' }).scrollIntoViewIfNeeded();
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), POLL).toBe(true);
    await screenshot(page, 'month-end-payments-phone-dark');
  });
});

describe('closing an Autofi month', () => {
  const monthInPage = (page: Page, period: string) =>
    page.evaluate((p) => new Date(`${p}-01T00:00:00Z`).toLocaleDateString(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' }), period);
  const newCompany = (name: string, address: string) => adminApi<Company>('companies', { method: 'POST', body: { name: `${name} ${uniqueTag()}`, address } });
  const addLine = (period: string, body: Record<string, unknown>) =>
    adminApi<InvoiceLine>('invoices/autofi/lines', { method: 'POST', body: { period, description: `Vehicle trackers ${uniqueTag()}`, unitPriceCents: 2_450, status: 'approved', ...body } });

  it('warns of the drafts that stay, closes into one invoice per company, and prints one with what was paid and the balance due', async () => {
    const period = freshPeriod();
    const [harbour, delta] = [await newCompany('Harbour Freight', '7 Harbour Road\nPort Town 4001'), await newCompany('Delta Couriers', '2 Delta Way')];
    const harbourLines = [await addLine(period, { companyId: harbour.id, quantity: 4, reference: 'FLEET-0' }), await addLine(period, { companyId: harbour.id, quantity: 9, reference: 'FLEET-1' })];
    const deltaLine = await addLine(period, { companyId: delta.id, quantity: 2 });
    const drafts = [await addLine(period, { companyId: harbour.id, quantity: 300, status: 'draft' }), await addLine(period, { companyId: delta.id, quantity: 117, status: 'draft' })];
    const page = await chrome.open();
    await page.goto(`/invoices/autofi/?period=${period}`);
    await heading(page, 'Autofi');
    const section = page.getByTestId('month-invoice');
    await section.getByRole('button', { name: 'Close month' }).click();
    const dialog = page.getByTestId('close-month-dialog');
    await expect.poll(() => dialog.getAttribute('aria-busy'), POLL).toBe('false');
    const month = await monthInPage(page, period);
    const draftSum = drafts.reduce((sum, l) => sum + l.amountCents, 0);
    await expectText(dialog.getByTestId('close-month-drafts').locator('.mantine-Alert-title'), `2 draft lines, ${await moneyInPage(page, draftSum)}, stay in ${month}`);
    const approvedSum = [...harbourLines, deltaLine].reduce((sum, l) => sum + l.amountCents, 0);
    expect(await textOf(dialog)).toContain(`Its 3 approved lines (${await moneyInPage(page, approvedSum)}) become invoiced, one invoice per company`);
    await settled(modal(page));
    await screenshot(page, 'month-end-close-dialog-desktop');
    await page.setViewportSize(PHONE);
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), POLL).toBe(true);
    await screenshot(page, 'month-end-close-dialog-phone');
    await page.setViewportSize(DESKTOP);
    await modal(page).getByRole('button', { name: 'Close month' }).click();
    await toast(page, 'success', 'Month closed').waitFor();

    // Numbered in the order of the companies' names: Delta, then Harbour.
    const [deltaNumber, harbourNumber] = [`AUTOFI-${period}-1`, `AUTOFI-${period}-2`];
    const rows = section.getByTestId('month-invoice-row');
    await expect.poll(() => rows.count(), POLL).toBe(2);
    expect(await textOf(rows.nth(0))).toContain(`Invoice ${deltaNumber}`);
    expect(await textOf(rows.nth(0))).toContain(delta.name);
    expect(await textOf(rows.nth(1))).toContain(`Invoice ${harbourNumber}`);
    expect(await textOf(rows.nth(1))).toContain(harbour.name);
    await expect.poll(() => section.getByRole('button', { name: 'Close month' }).count(), POLL).toBe(0);
    await expect.poll(() => page.getByRole('dialog').count(), POLL).toBe(0);
    await screenshot(page, 'month-end-autofi-closed-desktop');

    // A partial payment on Harbour's invoice, then its printed copy.
    const [, harbourInvoice] = (await adminApi<{ invoices: StatementDetail[] }>(`invoices/autofi/periods/${period}/invoices`)).invoices;
    await adminApi(`invoices/gifs/statements/${harbourInvoice!.id}/payments`, { method: 'POST', body: { paidOn: '2026-11-03', amountCents: 12_000, method: 'bank', reference: 'EFT 1' } });
    await page.reload();
    await section.getByRole('button', { name: `View invoice ${harbourNumber}` }).click();
    const view = page.getByTestId('statement-view');
    await view.waitFor();
    await expectText(statementStatus(view), 'Partially paid');
    const total = harbourLines.reduce((sum, l) => sum + l.amountCents, 0);
    await expectText(view.getByTestId('statement-total'), await moneyInPage(page, total));
    await settled(page.getByRole('dialog').last());
    await screenshot(page, 'month-end-autofi-invoice-desktop');

    const file = 'test-results/month-end-autofi-invoice.pdf';
    mkdirSync('test-results', { recursive: true });
    writeFileSync(file, await page.pdf({ format: 'A4', printBackground: true }));
    const text = pdfText(file);
    for (const part of [
      'Invoice',
      `Invoice number ${harbourNumber}`,
      'BILL TO',
      harbour.name,
      '7 Harbour Road',
      'Port Town 4001',
      `Total ${await moneyInPage(page, total)}`,
      `Paid −${await moneyInPage(page, 12_000)}`,
      `Balance due ${await moneyInPage(page, total - 12_000)}`,
      'FLEET-0',
      ...harbourLines.map((l) => l.description),
    ]) {
      expect(text, part).toContain(part);
    }
    for (const absent of [delta.name, deltaLine.description, 'Total due', ...drafts.map((l) => l.description)]) expect(text, absent).not.toContain(absent);
    execFileSync('pdftoppm', ['-png', '-r', '70', '-f', '1', '-l', '1', '-singlefile', file, 'test-results/month-end-autofi-invoice-print']);

    // The line's drawer links to the month with its invoices.
    await page.goto(`/invoices/autofi/?lineId=${harbourLines[0]!.id}`);
    const link = page.getByRole('link', { name: harbourNumber });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`/invoices/autofi/?period=${period}`);
  });

  it('refuses to close a month with an approved line of no company, naming it, and closes nothing', async () => {
    const period = freshPeriod();
    const company = await newCompany('Quay Haulage', '9 Quay Road');
    await addLine(period, { companyId: company.id, quantity: 1 });
    const lost = await addLine(period, { quantity: 1, description: `Spare trackers ${uniqueTag()}` });
    await addLine(period, { companyId: company.id, quantity: 40, status: 'draft' });
    const page = await chrome.open(PHONE);
    await page.goto(`/invoices/autofi/?period=${period}`);
    await page.evaluate((key) => localStorage.setItem(key, 'dark'), THEME_STORAGE_KEY);
    await page.reload();
    await heading(page, 'Autofi');
    const section = page.getByTestId('month-invoice');
    await section.getByRole('button', { name: 'Close month' }).click();
    await expect.poll(() => page.getByTestId('close-month-dialog').getAttribute('aria-busy'), POLL).toBe('false');
    await settled(modal(page));
    expect(await textOf(page.getByTestId('close-month-drafts'))).toContain('1 draft line,');
    await screenshot(page, 'month-end-close-dialog-phone-dark');
    await page.setViewportSize(DESKTOP);
    await screenshot(page, 'month-end-close-dialog-desktop-dark');
    await modal(page).getByRole('button', { name: 'Close month' }).click();
    const refusal = toast(page, 'error', 'Month not closed');
    await refusal.waitFor();
    expect(await toastText(refusal)).toContain(`${lost.id} (Spare trackers`);
    expect((await adminApi<{ invoices: StatementDetail[] }>(`invoices/autofi/periods/${period}/invoices`)).invoices).toEqual([]);
    expect(await textOf(section)).toContain('is open');
  });
});
