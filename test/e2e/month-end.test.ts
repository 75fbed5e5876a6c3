import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { THEME_STORAGE_KEY } from '../../src/client/lib/constants';
import type { AgingSummary, Company, InvoiceLine, StatementDetail } from '../../src/shared/types';
import { PHONE, POLL, adminApi, browserPerFile, choose, expectText, heading, modal, moneyInPage, screenshot, settled, statementStatus, textOf, toast, uniqueTag } from './fixtures';

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
    expect(text).not.toContain('Total due');
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
    await expectText(statementStatus(view), 'Issued');
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
  it('closes the month into one invoice, shows and prints it, and a line links to it', async () => {
    const period = freshPeriod();
    const lines = [];
    for (const [n, quantity] of [4, 9].entries()) {
      lines.push(await adminApi<InvoiceLine>('invoices/autofi/lines', { method: 'POST', body: { period, description: `Vehicle trackers ${uniqueTag()}`, quantity, unitPriceCents: 2_450, reference: `FLEET-${n}`, status: 'approved' } }));
    }
    const page = await chrome.open();
    await page.goto(`/invoices/autofi/?period=${period}`);
    await heading(page, 'Autofi');
    const section = page.getByTestId('month-invoice');
    await section.getByRole('button', { name: 'Close month' }).click();
    await modal(page).getByRole('button', { name: 'Close month' }).click();
    await toast(page, 'success', 'Month closed').waitFor();
    const number = `AUTOFI-${period}-1`;
    await expect.poll(() => textOf(section), POLL).toContain(`Invoice ${number}`);
    expect(await section.getByRole('button', { name: 'Close month' }).count()).toBe(0);
    await expect.poll(() => page.getByRole('dialog').count(), POLL).toBe(0);
    await screenshot(page, 'month-end-autofi-closed-desktop');

    await section.getByRole('button', { name: 'View invoice' }).click();
    const view = page.getByTestId('statement-view');
    await view.waitFor();
    for (const line of lines) await expect.poll(() => textOf(view), POLL).toContain(line.description);
    const total = lines.reduce((sum, l) => sum + l.amountCents, 0);
    await expectText(view.getByTestId('statement-total'), await moneyInPage(page, total));
    await settled(page.getByRole('dialog').last());
    await screenshot(page, 'month-end-autofi-invoice-desktop');

    const file = 'test-results/month-end-autofi-invoice.pdf';
    mkdirSync('test-results', { recursive: true });
    writeFileSync(file, await page.pdf({ format: 'A4', printBackground: true }));
    const text = pdfText(file);
    for (const part of ['Invoice', `Invoice number ${number}`, `Total due ${await moneyInPage(page, total)}`, 'FLEET-0', ...lines.map((l) => l.description)]) expect(text, part).toContain(part);
    execFileSync('pdftoppm', ['-png', '-r', '70', '-f', '1', '-l', '1', '-singlefile', file, 'test-results/month-end-autofi-invoice-print']);

    // The line's drawer links to the month with its invoice.
    await page.goto(`/invoices/autofi/?lineId=${lines[0]!.id}`);
    const link = page.getByRole('link', { name: number });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`/invoices/autofi/?period=${period}`);
  });
});
