import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Ticket, TicketReport, TimesheetReport } from '../../src/shared/types';
import { STATUS_LABELS } from '../../src/client/lib/ticket-labels';
import { addDays, monthBounds } from '../../src/shared/dates';
import type { TicketStatus } from '../../src/shared/schemas/tickets';
import {
  PHONE,
  POLL,
  adminApi,
  adminSession,
  apiResponse,
  browserPerFile,
  choose,
  csvLines,
  downloadText,
  expectText,
  heading,
  numberInPage,
  screenshot,
  stat,
  thisWeekUtc,
  todayUtc,
  uniqueTag,
  dayRangeInPage,
} from './fixtures';

const chrome = browserPerFile();

const hours = (minutes: number) => (minutes / 60).toFixed(2);

/** This calendar month, as the page's Month range computes it (the browser here runs in UTC). */
const thisMonthRange = () => monthBounds(todayUtc());

const timesheet = ({ from, to }: { from: string; to: string }) => adminApi<TimesheetReport>(`reports/timesheet?from=${from}&to=${to}`);

/** The chart's drawing: Mantine charts render recharts' SVG inside the element with the test id. */
const chartSvg = (page: Page, testId: string) => page.getByTestId(testId).locator('svg.recharts-surface').first();

describe('timesheet', () => {
  // Time of this file's own on today's date, so this week is never empty (early on a Monday, say).
  beforeAll(async () => {
    const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Timesheet work ${uniqueTag()}` } });
    for (const [minutes, billable] of [[90, true], [45, false]] as const) {
      await adminApi(`tickets/${ticket.id}/time-entries`, { method: 'POST', body: { workDate: todayUtc(), minutes, note: 'E2E timesheet', billable } });
    }
  });

  it("shows this week's chart and the API's total hours for Monday to Sunday", async () => {
    const week = thisWeekUtc();
    const report = await timesheet(week);
    expect(report.totals.minutes).toBeGreaterThanOrEqual(135);
    const page = await chrome.open();
    const answered = apiResponse(page, /^reports\/timesheet\?/);
    await page.goto('/reports/timesheet/');
    await heading(page, 'Timesheet');
    const asked = new URL((await answered).url()).searchParams;
    expect([asked.get('from'), asked.get('to')]).toEqual([week.from, week.to]);
    await page.getByText(await dayRangeInPage(page, week.from, week.to), { exact: true }).waitFor();
    await chartSvg(page, 'timesheet-chart').waitFor();
    await expect.poll(() => page.getByTestId('timesheet-chart').locator('.recharts-bar-rectangle').count(), POLL).toBeGreaterThan(0);
    await expectText(page.getByTestId('timesheet-total'), hours(report.totals.minutes));
    await expectText(stat(page, 'stat-total-hours'), hours(report.totals.minutes));
    await expectText(stat(page, 'stat-billable-hours'), hours(report.totals.billableMinutes));
    await expectText(stat(page, 'stat-people'), String(report.users.length));
    const table = page.getByRole('table', { name: 'Hours per person per day' });
    expect(await table.locator('tbody tr').count()).toBe(report.users.length);
    // Seven day columns plus person, total and billable.
    expect(await table.locator('thead th').count()).toBe(10);
    await screenshot(page, 'reports-timesheet-desktop');
  });

  it('switching to Month changes the range text and the totals to the month', async () => {
    const week = thisWeekUtc();
    const month = thisMonthRange();
    const report = await timesheet(month);
    const page = await chrome.open();
    await page.goto('/reports/timesheet/');
    await heading(page, 'Timesheet');
    await page.getByText(await dayRangeInPage(page, week.from, week.to), { exact: true }).waitFor();
    await page.getByTestId('timesheet-total').waitFor();

    const answered = apiResponse(page, new RegExp(`^reports/timesheet\\?from=${month.from}&to=${month.to}`));
    await page.getByText('Month', { exact: true }).click();
    await answered;
    await page.getByText(await dayRangeInPage(page, month.from, month.to), { exact: true }).waitFor();
    expect(await page.getByRole('radio', { name: 'Month' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'This month' }).waitFor();
    await expectText(page.getByTestId('timesheet-total'), hours(report.totals.minutes));
    const days = Number(month.to.slice(8, 10));
    expect(await page.getByRole('table', { name: 'Hours per person per day' }).locator('thead th').count()).toBe(days + 3);
  });

  it("Export CSV downloads the week's hours per person per day", async () => {
    const week = thisWeekUtc();
    const report = await timesheet(week);
    const { userId, firstName, surname } = await adminSession();
    const page = await chrome.open();
    await page.goto('/reports/timesheet/');
    await heading(page, 'Timesheet');
    await page.getByTestId('timesheet-total').waitFor();
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`timesheet-${week.from}-to-${week.to}.csv`);
    const rows = csvLines(await downloadText(download));
    expect(rows[0]).toBe('date,user,hours,billable_hours');
    expect(rows.length - 1).toBe(report.cells.length);
    const mine = report.cells.find((c) => c.userId === userId && c.workDate === todayUtc());
    expect(mine).toBeDefined();
    expect(rows).toContain(`${todayUtc()},${firstName} ${surname},${hours(mine?.minutes ?? 0)},${hours(mine?.billableMinutes ?? 0)}`);
  });
});

describe('ticket report', () => {
  const range = () => ({ from: addDays(todayUtc(), -364), to: todayUtc() });

  it("shows the chart and the API's opened total, and Group by Company regroups the table", async () => {
    const { from, to } = range();
    const byStatus = await adminApi<TicketReport>(`reports/tickets?from=${from}&to=${to}&groupBy=status`);
    const byCompany = await adminApi<TicketReport>(`reports/tickets?from=${from}&to=${to}&groupBy=company`);
    expect(byStatus.totals.opened).toBeGreaterThan(0);
    const page = await chrome.open();
    await page.goto('/reports/ticket-report/');
    await heading(page, 'Ticket report');
    await page.getByText(await dayRangeInPage(page, from, to), { exact: true }).waitFor();
    await chartSvg(page, 'ticket-report-chart').waitFor();
    await expect.poll(() => page.getByTestId('ticket-report-chart').locator('.recharts-line').count(), POLL).toBe(2);
    await expectText(stat(page, 'stat-opened'), await numberInPage(page, byStatus.totals.opened));
    await expectText(stat(page, 'stat-resolved'), await numberInPage(page, byStatus.totals.resolved));
    const statusTable = page.getByRole('table', { name: 'Tickets by status' });
    await expectText(statusTable.locator('thead th').first(), 'Status');
    expect(await statusTable.locator('tbody tr').count()).toBe(byStatus.groups.length);
    // Statuses read as the rest of the app names them ('In progress'), not as stored ('in_progress').
    const names = await statusTable.locator('tbody tr td:first-child').allTextContents();
    expect(names).toEqual(byStatus.groups.map((g) => STATUS_LABELS[g.label as TicketStatus]));
    await screenshot(page, 'reports-ticket-report-desktop');

    const regrouped = apiResponse(page, /^reports\/tickets\?.*groupBy=company/);
    await choose(page, page.getByRole('combobox', { name: 'Group by' }), 'Company');
    await regrouped;
    const companyTable = page.getByRole('table', { name: 'Tickets by company' });
    await expectText(companyTable.locator('thead th').first(), 'Company');
    await page.getByRole('heading', { name: 'By company', level: 2 }).waitFor();
    expect(await page.getByRole('table', { name: 'Tickets by status' }).count()).toBe(0);
    await expect.poll(() => companyTable.locator('tbody tr').count(), POLL).toBe(byCompany.groups.length);
    const first = byCompany.groups[0];
    const cells = await companyTable.locator('tbody tr').first().locator('td').allTextContents();
    expect(cells).toEqual([first?.label, await numberInPage(page, first?.count ?? -1)]);
    await expectText(stat(page, 'stat-opened'), await numberInPage(page, byCompany.totals.opened));
  });

  it('Export CSV writes opened and resolved as numeric columns of their own, after a BOM', async () => {
    const { from, to } = range();
    const report = await adminApi<TicketReport>(`reports/tickets?from=${from}&to=${to}&groupBy=status`);
    const page = await chrome.open();
    await page.goto('/reports/ticket-report/');
    await heading(page, 'Ticket report');
    await expectText(stat(page, 'stat-opened'), await numberInPage(page, report.totals.opened));
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const text = await downloadText(await downloading);
    expect(text.startsWith('\ufeff')).toBe(true);
    const rows = csvLines(text).map((row) => row.split(','));
    expect(rows[0]).toEqual(['section', 'key', 'count', 'opened', 'resolved']);
    const series = rows.filter(([section]) => section === 'opened_resolved');
    expect(series.map(([, bucket]) => bucket)).toEqual(report.series.map((s) => s.bucket));
    for (const row of series) expect(row[3]).toMatch(/^\d+$/);
    expect(series.map((row) => [Number(row[3]), Number(row[4])])).toEqual(report.series.map((s) => [s.opened, s.resolved]));
    expect(series.reduce((sum, row) => sum + Number(row[3]), 0)).toBe(report.totals.opened);
    expect(text).not.toMatch(/\d+\/\d+/);
    const groups = rows.filter(([section]) => section === 'status');
    expect(groups.map((row) => Number(row[2]))).toEqual(report.groups.map((g) => g.count));
  });
});

describe('reports at phone width', () => {
  it.each([
    { path: '/reports/timesheet/', title: 'Timesheet', chart: 'timesheet-chart', name: 'timesheet' },
    { path: '/reports/ticket-report/', title: 'Ticket report', chart: 'ticket-report-chart', name: 'ticket-report' },
  ])('$path renders its h1 and its chart', async ({ path, title, chart, name }) => {
    const page = await chrome.open(PHONE);
    await page.goto(path);
    const h1 = await heading(page, title);
    await chartSvg(page, chart).waitFor();
    const box = await page.getByTestId(chart).boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(200);
    expect((box?.x ?? -1) + (box?.width ?? 0)).toBeLessThanOrEqual(PHONE.width);
    expect(await h1.isVisible()).toBe(true);
    await screenshot(page, `reports-${name}-phone`);
  });
});
