import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Company, InvoiceLine, StatementDetail } from '../../src/shared/types';
import {
  PHONE,
  POLL,
  adminApi,
  adminApiAnswer,
  apiResponse,
  browserPerFile,
  drawer,
  expectText,
  fieldError,
  heading,
  liveHello,
  modal,
  moneyInPage,
  screenshot,
  statementStatus,
  tableLoaded,
  textOf,
  toast,
  toastText,
  uniqueTag,
} from './fixtures';

const chrome = browserPerFile();

let nextMonth = 0;
/** A month of its own for each statement a test makes (years nobody bills), so tests never share lines. */
const freshPeriod = () => {
  nextMonth += 1;
  return `20${String(10 + Math.floor(nextMonth / 12)).padStart(2, '0')}-${String((nextMonth % 12) + 1).padStart(2, '0')}`;
};

const newCompany = (address: string) =>
  adminApi<Company>('companies', { method: 'POST', body: { name: `Harbour Freight ${uniqueTag()}`, address } });

/** An open statement of approved SLA and Azure lines for `company` in a month of its own. */
const openStatement = async (company: Company, lines: { description: string; quantity: number; unitPriceCents: number; source?: string }[]) => {
  const period = freshPeriod();
  for (const [n, line] of lines.entries()) {
    const { source = 'gifs-sla', ...body } = line;
    await adminApi<InvoiceLine>(`invoices/${source}/lines`, { method: 'POST', body: { ...body, period, companyId: company.id, reference: `REF-${n + 1}`, status: 'approved' } });
  }
  return adminApi<StatementDetail>('invoices/gifs/statements', { method: 'POST', body: { period } });
};

const issue = (statement: StatementDetail) => adminApi<StatementDetail>(`invoices/gifs/statements/${statement.id}`, { method: 'PATCH', body: { status: 'issued', from: 'open' } });

const openInDrawer = async (page: Page, statement: StatementDetail) => {
  await page.goto(`/invoices/gifs/statement?statementId=${statement.id}`);
  await heading(page, 'GIFS statements');
  const view = page.getByTestId('statement-view');
  await view.waitFor();
  return view;
};

const statusBadge = (page: Page) => statementStatus(page.getByTestId('statement-view'));
const dialog = (page: Page) => page.getByTestId('transition-dialog');

/** Counts the statement PATCHes the page sends from now on, with their bodies. */
const watchMoves = (page: Page, id: number) => {
  const sent: unknown[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PATCH' && new URL(request.url()).pathname === `/api/v1/invoices/gifs/statements/${id}`) sent.push(request.postDataJSON());
  });
  return sent;
};

describe('statement transitions in the page', () => {
  it('a double click on "Issue statement" and on its confirmation issues once and never reaches "Mark paid"', async () => {
    const statement = await openStatement(await newCompany('1 Dock Road'), [{ description: 'Monitoring', quantity: 1, unitPriceCents: 10_000 }]);
    const page = await chrome.open();
    const view = await openInDrawer(page, statement);
    const sent = watchMoves(page, statement.id);

    const issueBox = await view.getByRole('button', { name: 'Issue statement' }).boundingBox();
    await view.getByRole('button', { name: 'Issue statement' }).dblclick();
    await dialog(page).waitFor();
    expect(sent).toEqual([]);
    const confirmButton = dialog(page).getByRole('button', { name: 'Issue statement' });
    const box = await confirmButton.boundingBox();
    if (!box) throw new Error('the confirmation has no box');
    await confirmButton.dblclick();
    await toast(page, 'success', 'Statement issued').waitFor();
    await expectText(statusBadge(page), 'Issued');
    await dialog(page).waitFor({ state: 'detached' });

    // Whatever is now under the pointer of that double click is not the next step.
    const under = await page.evaluate(({ x, y }) => (document.elementFromPoint(x, y)?.closest('button')?.textContent ?? '').trim(), { x: box.x + box.width / 2, y: box.y + box.height / 2 });
    expect(under).not.toBe('Mark paid');
    await page.mouse.dblclick(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForTimeout(500);

    expect(sent).toEqual([{ status: 'issued', from: 'open' }]);
    expect((await adminApi<StatementDetail>(`invoices/gifs/statements/${statement.id}`)).status).toBe('issued');
    // "Mark paid" did not take the place "Issue statement" had either.
    const markPaid = await view.getByRole('button', { name: 'Mark paid' }).boundingBox();
    if (!markPaid || !issueBox) throw new Error('the buttons have no boxes');
    const overlaps = markPaid.x < issueBox.x + issueBox.width && issueBox.x < markPaid.x + markPaid.width && markPaid.y < issueBox.y + issueBox.height && issueBox.y < markPaid.y + markPaid.height;
    expect(overlaps).toBe(false);
    await screenshot(page, 'invoices-statement-issued-desktop');
  });

  it('a move asked for on a page that went stale gets 409, says so, and the page shows the statement as it now is', async () => {
    const statement = await openStatement(await newCompany('2 Dock Road'), [{ description: 'Support', quantity: 2, unitPriceCents: 2_500 }]);
    const page = await chrome.open();
    const hello = liveHello(page);
    const view = await openInDrawer(page, statement);
    await hello;
    await expectText(statusBadge(page), 'Open');
    await view.getByRole('button', { name: 'Issue statement' }).click();
    await issue(statement); // someone else issues it while the question is open
    // The live channel brings the change to the page behind the question; the answer still means "from open".
    await expectText(statusBadge(page), 'Issued');

    const refused = apiResponse(page, new RegExp(`^invoices/gifs/statements/${statement.id}$`), 'PATCH');
    await dialog(page).getByRole('button', { name: 'Issue statement' }).click();
    expect((await refused).status()).toBe(409);
    const error = toast(page, 'error', 'Statement not updated');
    await error.waitFor();
    expect(await toastText(error)).toBe(`Statement not updated | Statement ${statement.number} is issued, not open; reload it to see what changed`);
    await expectText(statusBadge(page), 'Issued');
    expect((await adminApi<StatementDetail>(`invoices/gifs/statements/${statement.id}`)).status).toBe('issued');
  });

  it('"Void statement" needs a reason, then returns the lines to approved and keeps the statement as void', async () => {
    const statement = await issue(await openStatement(await newCompany('3 Dock Road'), [{ description: 'Azure usage', quantity: 3, unitPriceCents: 1_999, source: 'gifs-azure' }]));
    const page = await chrome.open();
    const view = await openInDrawer(page, statement);
    const sent = watchMoves(page, statement.id);

    await view.getByRole('button', { name: 'Void statement' }).click();
    await expectText(dialog(page).locator('p').first(), `Void statement ${statement.number} to ${statement.companyName} for ${await page.evaluate((p) => new Date(`${p}-01T00:00:00Z`).toLocaleDateString(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' }), statement.period)}?`);
    await expectText(dialog(page).getByTestId('transition-total'), await moneyInPage(page, 5_997));
    await dialog(page).getByRole('button', { name: 'Void statement' }).click();
    const reason = dialog(page).getByRole('textbox', { name: 'Reason' });
    await expect.poll(() => fieldError(reason), POLL).toBe('Give the reason for voiding');
    expect(sent).toEqual([]);
    await screenshot(page, 'invoices-statement-void-dialog-desktop');

    await reason.fill('Billed at the wrong rate');
    await dialog(page).getByRole('button', { name: 'Void statement' }).click();
    await toast(page, 'success', 'Statement voided').waitFor();
    expect(sent).toEqual([{ status: 'void', from: 'issued', reason: 'Billed at the wrong rate' }]);
    await expectText(statusBadge(page), 'Void');
    expect(await textOf(view.getByRole('alert'))).toContain('Billed at the wrong rate');
    for (const line of statement.lines) {
      expect(await adminApi<InvoiceLine>(`invoices/lines/${line.id}`)).toMatchObject({ status: 'approved', statementId: null });
    }
    await screenshot(page, 'invoices-statement-void-desktop');
  });
});

describe('line editing', () => {
  const newLine = (period: string) =>
    adminApi<InvoiceLine>('invoices/autofi/lines', { method: 'POST', body: { period, description: `Trackers ${uniqueTag()}`, quantity: 2, unitPriceCents: 100, status: 'draft' } });

  it('takes the unit price as currency: "12.50" is saved as 1250 cents', async () => {
    const line = await newLine(freshPeriod());
    const page = await chrome.open();
    await page.goto(`/invoices/autofi/?lineId=${line.id}`);
    const panel = drawer(page);
    const price = panel.getByRole('textbox', { name: 'Unit price' });
    await expect.poll(() => price.inputValue(), POLL).toBe('1.00');
    await price.fill('12.50');
    await panel.getByLabel('Quantity').fill('3');
    const saved = apiResponse(page, new RegExp(`^invoices/lines/${line.id}$`), 'PATCH');
    await panel.getByRole('button', { name: 'Save line' }).click();
    const response = await saved;
    expect(response.request().postDataJSON()).toMatchObject({ unitPriceCents: 1250, quantity: 3 });
    await toast(page, 'success', 'Line saved').waitFor();
    expect(await adminApi<InvoiceLine>(`invoices/lines/${line.id}`)).toMatchObject({ unitPriceCents: 1250, quantity: 3, amountCents: 3750 });
    await expectText(panel.getByTestId('line-amount'), await moneyInPage(page, 3750));
    await expect.poll(() => price.inputValue(), POLL).toBe('12.50');
    await screenshot(page, 'invoices-line-price-desktop');
  });

  it.each([
    ['-3', 'Must not be negative'],
    ['1.5', 'Must be a whole number'],
  ])('a quantity of %s shows "%s" and is neither sent nor clamped', async (typed, message) => {
    const line = await newLine(freshPeriod());
    const page = await chrome.open();
    await page.goto(`/invoices/autofi/?lineId=${line.id}`);
    const panel = drawer(page);
    const quantity = panel.getByRole('textbox', { name: 'Quantity' });
    await expect.poll(() => quantity.inputValue(), POLL).toBe('2');
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH') sent.push(request.url());
    });
    await quantity.fill(typed);
    await quantity.blur();
    await panel.getByRole('button', { name: 'Save line' }).click();
    await expect.poll(() => fieldError(quantity), POLL).toBe(message);
    expect(await quantity.inputValue()).toBe(typed);
    expect(sent).toEqual([]);
    expect((await adminApi<InvoiceLine>(`invoices/lines/${line.id}`)).quantity).toBe(2);
    if (typed === '-3') await screenshot(page, 'invoices-line-negative-quantity-desktop');
  });

  it('right-aligns the amounts of the ledger and the statements list', async () => {
    const page = await chrome.open();
    await page.goto('/invoices/autofi/');
    await heading(page, 'Autofi');
    const ledger = page.getByRole('table', { name: 'Autofi lines', exact: true });
    // Loaded rows, not the skeleton's.
    await tableLoaded(page, 'Autofi lines');
    await expect.poll(() => ledger.locator('tbody tr').count(), POLL).toBeGreaterThan(0);
    const align = (table: typeof ledger, column: number) =>
      table.evaluate((t, n) => [...t.querySelectorAll(`tr > :nth-child(${n})`)].map((cell) => getComputedStyle(cell).textAlign), column);
    for (const column of [4, 5, 6]) expect(new Set(await align(ledger, column)), `ledger column ${column}`).toEqual(new Set(['right']));
    await page.goto('/invoices/gifs/statement');
    const list = page.getByRole('table', { name: 'Statements', exact: true });
    await tableLoaded(page, 'Statements');
    await expect.poll(() => list.locator('tbody tr').count(), POLL).toBeGreaterThan(0);
    for (const column of [5, 7]) expect(new Set(await align(list, column)), `statements column ${column}`).toEqual(new Set(['right']));
  });
});

describe('printed statement', () => {
  const pdfText = (file: string, ...args: string[]) => execFileSync('pdftotext', [...args, file, '-'], { encoding: 'utf8' });
  const pdfInfo = (file: string) => execFileSync('pdfinfo', [file], { encoding: 'utf8' });

  /** The mean grey level (0 black … 255 white) of the first page, rendered small. */
  const meanGrey = (file: string, base: string) => {
    execFileSync('pdftoppm', ['-gray', '-r', '30', '-f', '1', '-l', '1', '-singlefile', file, base]);
    const pgm = readFileSync(`${base}.pgm`);
    // Binary PGM: "P5\n<width> <height>\n<max>\n" then one byte per pixel.
    const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(pgm.subarray(0, 40).toString('latin1'));
    if (!header) throw new Error('pdftoppm wrote no PGM');
    const pixels = pgm.subarray(header[0].length);
    return pixels.reduce((sum, value) => sum + value, 0) / pixels.length;
  };

  it.each([
    { format: 'A4', width: 595.44, height: 842.4 },
    { format: 'Letter', width: 612, height: 792 },
  ] as const)('prints as an $format document in the dark theme: sender, recipient, dates, lines and total, and nothing of the app', async ({ format, width, height }) => {
    const company = await newCompany('12 Quay Street\nPort Elizabeth 6001');
    const tag = uniqueTag();
    const long = `Managed SLA for the harbour tracking fleet, including on-call support, monthly reporting and a description long enough to wrap ${tag}`;
    const opened = await openStatement(company, [
      { description: long, quantity: 1, unitPriceCents: 250_000 },
      { description: 'Azure compute, reserved instances', quantity: 12, unitPriceCents: 8_375, source: 'gifs-azure' },
    ]);
    const page = await chrome.open();
    await page.addInitScript(() => localStorage.setItem('theme', 'dark'));
    const view = await openInDrawer(page, opened);
    expect(await page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('dark');
    // Issue it in the page, so its success toast is on screen while it prints.
    await view.getByRole('button', { name: 'Issue statement' }).click();
    await dialog(page).getByRole('button', { name: 'Issue statement' }).click();
    await toast(page, 'success', 'Statement issued').waitFor();
    await expectText(statusBadge(page), 'Issued');
    const statement = await adminApi<StatementDetail>(`invoices/gifs/statements/${opened.id}`);

    mkdirSync('test-results', { recursive: true });
    const file = `test-results/statement-${format.toLowerCase()}.pdf`;
    writeFileSync(file, await page.pdf({ format, printBackground: true }));
    expect(await toast(page, 'success', 'Statement issued').count()).toBe(1); // it was on screen while printing

    const info = pdfInfo(file);
    expect(info).toMatch(/^Pages:\s+1$/m);
    const [, pageWidth, pageHeight] = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(info) ?? [];
    expect(Math.abs(Number(pageWidth) - width)).toBeLessThan(2);
    expect(Math.abs(Number(pageHeight) - height)).toBeLessThan(2);

    const text = pdfText(file, '-layout').replace(/[ \t]+/g, ' ');
    const inPage = (script: (value: string) => string, value: string) => page.evaluate(script, value);
    // A plain day is read as that calendar day; an instant in the person's time zone.
    const longDate = (value: string) =>
      value.length === 10
        ? new Date(`${value}T00:00:00Z`).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })
        : new Date(value).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
    const expected = [
      'Example Services Ltd',
      '1 Harbour Street',
      'Springfield 4000',
      'BILL TO',
      company.name,
      '12 Quay Street',
      'Port Elizabeth 6001',
      `Statement number ${statement.number}`,
      `Period ${await inPage((p) => new Date(`${p}-01T00:00:00Z`).toLocaleDateString(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' }), statement.period)}`,
      `Issue date ${await inPage(longDate, statement.issuedAt ?? '')}`,
      `Due date ${await inPage(longDate, statement.dueOn ?? '')}`,
      'Azure compute, reserved instances',
      `Balance due ${await moneyInPage(page, statement.totalCents)}`,
      'Payment terms: 30 days',
    ];
    for (const part of expected) expect(text, part).toContain(part);
    expect(text).toContain('Managed SLA for the harbour');
    expect(text).toContain(tag);
    for (const line of statement.lines) expect(text).toContain(await moneyInPage(page, line.amountCents));
    for (const absent of ['Statement issued', 'Mark paid', 'Void statement', 'Print', 'Dashboard', 'GIFS statements', 'Tickets']) expect(text, absent).not.toContain(absent);

    // Every word sits inside the page's margins: nothing starts far in or runs off the right edge.
    const boxes = [...pdfText(file, '-bbox').matchAll(/xMin="([\d.]+)"[^>]*xMax="([\d.]+)"/g)].map(([, min, max]) => [Number(min), Number(max)] as const);
    expect(boxes.length).toBeGreaterThan(40);
    expect(Math.min(...boxes.map(([min]) => min))).toBeLessThan(50);
    expect(Math.max(...boxes.map(([, max]) => max))).toBeLessThanOrEqual(width - 30);

    // Light paper even though the app was dark, and a picture to look at.
    expect(meanGrey(file, `test-results/statement-${format.toLowerCase()}-grey`)).toBeGreaterThan(235);
    execFileSync('pdftoppm', ['-png', '-r', '70', '-f', '1', '-l', '1', '-singlefile', file, `test-results/statement-${format.toLowerCase()}`]);
  });

  it('the statement drawer and its dialogs fit a phone', async () => {
    const statement = await openStatement(await newCompany('4 Dock Road'), [{ description: 'Monitoring', quantity: 1, unitPriceCents: 4_200 }]);
    const page = await chrome.open(PHONE);
    const view = await openInDrawer(page, statement);
    await screenshot(page, 'invoices-statement-open-phone');
    await view.getByRole('button', { name: 'Issue statement' }).click();
    await dialog(page).waitFor();
    const box = await modal(page).boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
    await screenshot(page, 'invoices-statement-issue-dialog-phone');
    expect((await adminApiAnswer(`invoices/gifs/statements/${statement.id}`)).status).toBe(200);
  });
});
