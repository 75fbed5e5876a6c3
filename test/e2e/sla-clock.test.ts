import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, inject } from 'vitest';
import type { Calendar, SlaPolicy, SlaReport } from '../../src/shared/sla';
import type { Company, DashboardSummary, Ticket } from '../../src/shared/types';
import {
  PHONE,
  POLL,
  adminApi,
  apiResponse,
  browserPerFile,
  choose,
  drawer,
  expectText,
  heading,
  numberInPage,
  screenshot,
  stat,
  tableLoaded,
  tableRows,
  textOf,
  todayUtc,
  uniqueTag,
} from './fixtures';

// The service-level clock as people see it (docs/architecture.md#service-levels): in the ticket
// drawer, the list's SLA column, its filter and sort, the dashboard's figures and the Service
// levels report. The clock's arithmetic is proven in workerd; here a breach is made by moving the
// stored due times into the past in the running app's local D1, instead of waiting hours.
const chrome = browserPerFile();
const LIST = 'Tickets';
const run = promisify(execFile);

/** Runs one SQL statement on the e2e server's local D1, as `wrangler d1 execute` would on a developer's. */
const sqlOnServer = async (sql: string) => {
  await run(path.join('node_modules', '.bin', 'wrangler'), ['d1', 'execute', 'DB', '--local', '--persist-to', inject('stateDir'), '--command', sql], {
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' },
  });
};

/** Ticket `id`'s first response and resolution came due an hour ago and have not been met. */
const breach = (id: number) =>
  sqlOnServer(
    `UPDATE tickets SET sla_first_response_due_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-2 hours'), ` +
      `sla_resolution_due_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 hours'), ` +
      `sla_due_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-2 hours') WHERE id = ${Math.trunc(id)}`,
  );

/** The first cell (#) of each visible row, as numbers. */
const rowIds = async (page: Page) => (await tableRows(page, LIST).locator('td:first-child').allTextContents()).map(Number);
const rowOf = (page: Page, id: number) => tableRows(page, LIST).filter({ has: page.getByRole('cell', { name: String(id), exact: true }) });

const openList = async (page: Page, address: string) => {
  await page.goto(address);
  await heading(page, 'Tickets');
  await tableLoaded(page, LIST);
};

let company: Company;
let first: Ticket;
let second: Ticket;

beforeAll(async () => {
  company = await adminApi<Company>('companies', { method: 'POST', body: { name: `Clocked ${uniqueTag()}` } });
  // No hours: the calendar counts around the clock, so due times are plain minutes from now.
  const calendar = await adminApi<Calendar>('calendars', { method: 'POST', body: { name: `Always ${uniqueTag()}`, timeZone: 'UTC', hours: [] } });
  // Position 1: no policy other tests make can match these tickets first.
  await adminApi<SlaPolicy>('sla-policies', {
    method: 'POST',
    body: { name: `Clock ${uniqueTag()}`, position: 1, companyId: company.id, calendarId: calendar.id, firstResponseMinutes: 60, resolutionMinutes: 240 },
  });
  const ticket = (title: string) => adminApi<Ticket>('tickets', { method: 'POST', body: { title: `${title} ${uniqueTag()}`, priority: 'normal', companyId: company.id } });
  first = await ticket('Clock starts');
  second = await ticket('Clock starts later');
  expect(first.sla).toMatchObject({ state: 'running', firstRespondedAt: null });
  expect((second.sla?.firstResponseDueAt ?? '') > (first.sla?.firstResponseDueAt ?? '~')).toBe(true);
});

describe('service-level clock', () => {
  it("the drawer shows the running clock and its due times; the list's SLA column shows it and sorts by it", async () => {
    const page = await chrome.open();
    await page.goto(`/tickets/?id=${first.id}`);
    const clock = drawer(page).getByTestId('sla-clock');
    await clock.waitFor();
    await expect.poll(() => textOf(clock.getByTestId('sla-state')), POLL).toMatch(/ left$/);
    await expect.poll(() => textOf(clock), POLL).toMatch(/First response due .+Resolution due /);
    await screenshot(page, 'sla-clock-drawer-desktop');

    await openList(page, `/tickets/?companyId=${company.id}`);
    expect(await rowIds(page)).toEqual([second.id, first.id]);
    await expect.poll(() => textOf(rowOf(page, first.id)), POLL).toMatch(/ left/);

    // Ascending by the next due time: the first ticket's clock started first, so it is due first.
    const header = page.getByRole('columnheader', { name: 'Sort by SLA' });
    const ascending = apiResponse(page, /^tickets\?.*sort=slaDueAt(&|$)/);
    await page.getByRole('button', { name: 'Sort by SLA' }).click();
    expect((await ascending).status()).toBe(200);
    await expect.poll(() => header.getAttribute('aria-sort'), POLL).toBe('ascending');
    await expect.poll(() => rowIds(page), POLL).toEqual([first.id, second.id]);
    expect(new URL(page.url()).searchParams.get('sort')).toBe('slaDueAt');
    const descending = apiResponse(page, /^tickets\?.*sort=-slaDueAt(&|$)/);
    await page.getByRole('button', { name: 'Sort by SLA' }).click();
    expect((await descending).status()).toBe(200);
    await expect.poll(() => header.getAttribute('aria-sort'), POLL).toBe('descending');
    await expect.poll(() => rowIds(page), POLL).toEqual([second.id, first.id]);
    await screenshot(page, 'sla-column-desktop');

    // A ticket without a policy shows nothing in that cell.
    const bare = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `No clock ${uniqueTag()}`, priority: 'normal' } });
    expect(bare.sla).toBeNull();
    await openList(page, `/tickets/?q=${encodeURIComponent(bare.title)}`);
    expect(await rowIds(page)).toEqual([bare.id]);
    await expect.poll(() => textOf(rowOf(page, bare.id)), POLL).not.toMatch(/left|Breached|Paused|Met/);
  });

  it('a ticket past its due times is listed as breached, counted on the dashboard and in the Service levels report', async () => {
    await breach(first.id);
    const answered = await adminApi<Ticket>(`tickets/${first.id}`);
    expect(answered.sla?.state).toBe('breached');

    const page = await chrome.open();
    // The list filtered by the Service level select, kept in the address as `sla`.
    await openList(page, `/tickets/?companyId=${company.id}`);
    const filtered = apiResponse(page, /^tickets\?.*sla=breached(&|$)/);
    await choose(page, page.getByRole('combobox', { name: 'Service level' }), 'Breached');
    expect((await filtered).status()).toBe(200);
    await expect.poll(() => new URL(page.url()).searchParams.get('sla'), POLL).toBe('breached');
    await tableLoaded(page, LIST);
    await expect.poll(() => rowIds(page), POLL).toEqual([first.id]);
    await expect.poll(() => textOf(rowOf(page, first.id)), POLL).toContain('Breached');
    await screenshot(page, 'sla-breached-list-desktop');

    await page.goto(`/tickets/?sla=breached&companyId=${company.id}&id=${first.id}`);
    await expectText(drawer(page).getByTestId('sla-state'), 'Breached');

    // The dashboard's figure counts it (among other runs' breaches) and lists the open breached tickets.
    await page.goto('/');
    const summary = await adminApi<DashboardSummary>('dashboard/summary');
    expect(summary.slaBreached).toBeGreaterThanOrEqual(1);
    const figure = stat(page, 'stat-sla-breached');
    await expect.poll(() => textOf(figure), POLL).toBe(await numberInPage(page, summary.slaBreached));
    await stat(page, 'stat-sla-due-within-4-hours').waitFor();
    await screenshot(page, 'sla-dashboard-desktop');
    await page.getByRole('link', { name: /^SLA breached/ }).click();
    await heading(page, 'Tickets');
    const address = new URL(page.url());
    expect(address.pathname).toBe('/tickets/');
    expect(address.searchParams.get('sla')).toBe('breached');
    expect(address.searchParams.get('open')).toBe('true');
    await tableLoaded(page, LIST);

    // The report: the company's month with one breached of two.
    const today = todayUtc();
    const report = await adminApi<SlaReport>(`reports/sla?from=${today.slice(0, 8)}01&to=${today}&companyId=${company.id}`);
    expect(report.rows).toEqual([expect.objectContaining({ companyId: company.id, tickets: 2, met: 0, breached: 1 })]);
    await page.goto(`/reports/sla/?companyId=${company.id}`);
    await heading(page, 'Service levels');
    const row = page.getByRole('table', { name: 'Service levels per company and month' }).locator('tbody tr').filter({ hasText: company.name });
    await expect.poll(async () => (await row.locator('td').allTextContents()).slice(2), POLL).toEqual(['2', '0', '1', '0%']);
    await screenshot(page, 'sla-report-desktop');
  });

  it('the breached list and the report read at phone width', async () => {
    const page = await chrome.open(PHONE);
    await openList(page, `/tickets/?sla=breached&companyId=${company.id}`);
    await expect.poll(() => rowIds(page), POLL).toEqual([first.id]);
    await screenshot(page, 'sla-breached-list-phone');
    await page.goto(`/reports/sla/?companyId=${company.id}`);
    await heading(page, 'Service levels');
    await page.getByText(company.name).first().waitFor();
    await screenshot(page, 'sla-report-phone');
  });
});

