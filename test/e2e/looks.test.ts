import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Company, DashboardSummary, InvoiceLine, StatementDetail, Ticket } from '../../src/shared/types';
import { PHONE, POLL, adminApi, browserPerFile, expectText, heading, moneyInPage, screenshot, settled, stat, tableLoaded, textOf, uniqueTag, type Viewport } from './fixtures';

const chrome = browserPerFile();

/** The laptop size the walkthrough was done at. */
const LAPTOP: Viewport = { width: 1366, height: 800 };
const SIZES = [
  { name: 'desktop', viewport: LAPTOP },
  { name: 'phone', viewport: PHONE },
] as const;
const THEMES = ['light', 'dark'] as const;

const openIn = async (viewport: Viewport, theme: (typeof THEMES)[number] = 'light') => {
  const page = await chrome.open(viewport);
  await page.addInitScript((value) => localStorage.setItem('theme', value), theme);
  return page;
};

/** Whether the element's box lies inside the window and is what a tap at its centre reaches. */
const onScreenAndReachable = (locator: Locator) =>
  locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    const inside = box.width > 0 && box.left >= 0 && box.right <= window.innerWidth && box.top >= 0 && box.bottom <= window.innerHeight;
    const hit = document.elementFromPoint(x, y);
    return inside && hit !== null && element.contains(hit);
  });

let nextMonth = 0;
/** A month of its own (2007, a year nobody else bills) for each statement made here. */
const freshPeriod = () => {
  nextMonth += 1;
  return `2007-${String(nextMonth).padStart(2, '0')}`;
};

const statementWith = async (reference: string) => {
  const company = await adminApi<Company>('companies', { method: 'POST', body: { name: `Quay Logistics ${uniqueTag()}`, address: '9 Pier Road' } });
  const period = freshPeriod();
  const lines = [
    { source: 'gifs-sla', description: 'Managed SLA for the harbour tracking fleet, on-call support and monthly reporting', quantity: 1, unitPriceCents: 1_250_000, reference: 'GIFS-SLA-2026-10-1' },
    { source: 'gifs-azure', description: 'Azure compute, reserved instances', quantity: 1_200, unitPriceCents: 8_375, reference },
  ];
  for (const { source, ...line } of lines) {
    await adminApi<InvoiceLine>(`invoices/${source}/lines`, { method: 'POST', body: { ...line, period, companyId: company.id, status: 'approved' } });
  }
  return adminApi<StatementDetail>('invoices/gifs/statements', { method: 'POST', body: { period } });
};

describe('dates', () => {
  it("the ledger's Period column names the month (November 2026), not 2026-11", async () => {
    const page = await openIn(LAPTOP);
    await page.goto('/invoices/gifs/azure');
    await heading(page, 'GIFS Azure');
    await tableLoaded(page, 'GIFS Azure lines');
    const table = page.getByRole('table', { name: 'GIFS Azure lines', exact: true });
    const column = (await table.locator('thead th').allTextContents()).findIndex((header) => header.startsWith('Period')) + 1;
    expect(column).toBeGreaterThan(0);
    const periods = await table.locator(`tbody tr td:nth-child(${column})`).allTextContents();
    expect(periods.length).toBeGreaterThan(0);
    for (const period of periods) expect(period).toMatch(/^[A-Z][a-z]+ \d{4}$/);
  });
});

describe('printed statement', () => {
  it.each(['A4', 'Letter'] as const)('keeps a reference like GIFS-AZURE-2026-10-1 on one line (%s)', async (format) => {
    const reference = 'GIFS-AZURE-2026-10-1';
    const statement = await statementWith(reference);
    const page = await openIn(LAPTOP);
    await page.goto(`/invoices/gifs/statement?statementId=${statement.id}`);
    await page.getByTestId('statement-view').waitFor();
    mkdirSync('test-results', { recursive: true });
    const file = `test-results/statement-reference-${format.toLowerCase()}.pdf`;
    writeFileSync(file, await page.pdf({ format, printBackground: true }));
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    expect(text).toContain(reference);
    expect(text).toContain('GIFS-SLA-2026-10-1');
    // The amounts and the total still fit their columns beside it.
    expect(text).toContain(await moneyInPage(page, 1_200 * 8_375));
    expect(text.replace(/[ \t]+/g, ' ')).toContain(`Total ${await moneyInPage(page, statement.totalCents)}`);
    execFileSync('pdftoppm', ['-png', '-r', '70', '-f', '1', '-l', '1', '-singlefile', file, `test-results/statement-reference-${format.toLowerCase()}`]);
  });
});

describe('tickets', () => {
  it.each(SIZES)('shows the whole search placeholder ($name)', async ({ name, viewport }) => {
    const page = await openIn(viewport);
    await page.goto('/tickets/');
    await heading(page, 'Tickets');
    const search = page.getByRole('searchbox', { name: 'Search' });
    await settled(search);
    const fits = await search.evaluate((input: HTMLInputElement) => {
      const style = getComputedStyle(input);
      const context = document.createElement('canvas').getContext('2d');
      if (!context) throw new Error('no canvas');
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return { text: context.measureText(input.placeholder).width, room };
    });
    expect(fits.text).toBeGreaterThan(0);
    expect(fits.text).toBeLessThanOrEqual(fits.room);
    await screenshot(page, `looks-tickets-${name}`);
  });
});

describe('on a phone', () => {
  it.each(THEMES)("the header's search button shows a drawn icon (%s)", async (theme) => {
    const page = await openIn(PHONE, theme);
    await page.goto('/dashboard/');
    await heading(page, 'Dashboard');
    const button = page.getByRole('banner').getByRole('button', { name: 'Search' });
    const icon = button.locator('svg');
    await icon.waitFor();
    const box = await icon.boundingBox();
    expect(box && box.width >= 14 && box.height >= 14).toBe(true);
    // No text glyph that a phone's fonts may lack (it showed as an empty box).
    expect((await button.innerText()).replace('Search', '').trim()).toBe('');
    expect(await onScreenAndReachable(button)).toBe(true);
    await screenshot(page, `looks-header-phone-${theme}`);
  });

  it.each(SIZES)("the backups table's Download button stays on screen ($name)", async ({ name, viewport }) => {
    await adminApi('settings/backup-db', { method: 'POST' });
    const page = await openIn(viewport, 'dark');
    await page.goto('/dashboard/?settings=true&tab=database');
    const dialog = page.getByRole('dialog', { name: 'Settings Database' });
    const table = dialog.getByRole('table', { name: 'Backups' });
    await table.and(page.locator('[aria-busy="false"]')).waitFor();
    const download = table.getByRole('row').nth(1).getByRole('button', { name: /^Download/ });
    await settled(dialog);
    // As the table first shows, without scrolling it sideways.
    expect(await onScreenAndReachable(download)).toBe(true);
    await screenshot(page, `looks-backups-${name}`);
  });
});

describe('statement drawer', () => {
  it.each(SIZES)('names the statement once ($name)', async ({ name, viewport }) => {
    const statement = await statementWith(`GIFS-AZURE-${uniqueTag()}`);
    const page = await openIn(viewport);
    await page.goto(`/invoices/gifs/statement?statementId=${statement.id}`);
    const view = page.getByTestId('statement-view');
    await view.waitFor();
    const panel = page.getByRole('dialog', { name: `Statement ${statement.number}` });
    await expectText(panel.getByRole('heading').first(), `Statement ${statement.number}`);
    const top = `${await textOf(panel.locator('.mantine-Drawer-header'))} ${await textOf(view)}`;
    expect(top.split(statement.number).length - 1).toBe(1);
    await screenshot(page, `looks-statement-drawer-${name}`);
  });
});

describe('GIFS overview', () => {
  it.each(THEMES.flatMap((theme) => SIZES.map((size) => ({ theme, ...size }))))('its links use the app link colour and read clearly ($theme, $name)', async ({ theme, name, viewport }) => {
    const page = await openIn(viewport, theme);
    await page.goto('/invoices/gifs/');
    await heading(page, 'GIFS');
    const main = page.locator('main');
    await expect.poll(() => main.locator('a[href*="statementId="]').count(), POLL).toBeGreaterThan(0);
    const links = await main.locator('a[href]').evaluateAll((anchors) => {
      const probe = document.createElement('span');
      probe.style.color = 'var(--mantine-color-anchor)';
      document.body.append(probe);
      const anchorColour = getComputedStyle(probe).color;
      probe.remove();
      const rgb = (colour: string) => (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
      const luminance = (colour: string) => {
        const [r = 0, g = 0, b = 0] = rgb(colour).map((v) => {
          const c = v / 255;
          return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const background = (element: Element | null): string => {
        for (let node = element; node; node = node.parentElement) {
          const colour = getComputedStyle(node).backgroundColor;
          if (colour !== 'rgba(0, 0, 0, 0)' && colour !== 'transparent') return colour;
        }
        return 'rgb(255, 255, 255)';
      };
      return anchors.map((anchor) => {
        // The link's first words: a card-sized link is named by its first line.
        const walker = document.createTreeWalker(anchor, NodeFilter.SHOW_TEXT, { acceptNode: (node) => (node.textContent?.trim() ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_SKIP) });
        const words = walker.nextNode()?.parentElement ?? anchor;
        const colour = getComputedStyle(words).color;
        const [light, dark] = [luminance(colour), luminance(background(words))].sort((a, b) => b - a) as [number, number];
        return { text: words.textContent?.trim(), colour, anchorColour, contrast: (light + 0.05) / (dark + 0.05) };
      });
    });
    expect(links.length).toBeGreaterThan(3);
    for (const link of links) {
      expect(link.colour, link.text).toBe(link.anchorColour);
      expect(link.contrast, link.text).toBeGreaterThanOrEqual(4.5);
    }
    await screenshot(page, `looks-gifs-overview-${theme}-${name}`);
  });
});

describe('dashboard', () => {
  it("the Unbilled card leads to a page showing the same figure, by the same definition", async () => {
    const summary = await adminApi<DashboardSummary>('dashboard/summary');
    const page = await openIn(LAPTOP);
    await page.goto('/dashboard/');
    await heading(page, 'Dashboard');
    const figure = await moneyInPage(page, summary.unbilledCents);
    await expectText(stat(page, 'stat-unbilled'), figure);
    await page.getByRole('link', { name: /^Unbilled/ }).click();
    await heading(page, 'GIFS');
    expect(new URL(page.url()).pathname).toBe('/invoices/gifs/');
    await expectText(page.locator('main').getByTestId('stat-unbilled'), figure);
    await screenshot(page, 'looks-unbilled-target');
  });
});

describe('timesheet', () => {
  it.each(SIZES)('charts all seven days of a week, days without time too ($name)', async ({ name, viewport }) => {
    // A week long before the demo data, with time on its Wednesday only.
    const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Old week ${uniqueTag()}` } });
    await adminApi(`tickets/${ticket.id}/time-entries`, { method: 'POST', body: { workDate: '2009-06-10', minutes: 90, note: 'One day of time', billable: true } });
    const page = await openIn(viewport);
    await page.goto('/reports/timesheet/?from=2009-06-08');
    await heading(page, 'Timesheet');
    const chart = page.getByTestId('timesheet-chart');
    await chart.locator('svg.recharts-surface').first().waitFor();
    // A phone names the weekdays alone; wider screens their dates too.
    const parts = name === 'phone' ? ({ weekday: 'short' } as const) : ({ weekday: 'short', day: 'numeric' } as const);
    const expected = await page.evaluate(
      (options) => [8, 9, 10, 11, 12, 13, 14].map((day) => new Date(Date.UTC(2009, 5, day)).toLocaleDateString(undefined, { ...options, timeZone: 'UTC' })),
      parts,
    );
    await expect.poll(() => chart.locator('text.recharts-cartesian-axis-tick-value[text-anchor="middle"]').allTextContents(), POLL).toEqual(expected);
    await screenshot(page, `looks-timesheet-${name}`);
  });
});
