import type { Page, Request } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { addDays, addMonths, monthBounds, quarterBounds } from '../../src/shared/dates';
import type { Ticket } from '../../src/shared/types';
import { admin, answer, browserForFile, PHONE, watchErrors, type Viewport } from './fixtures';
import { adminApi, apiResponse, dayRangeInPage, heading, POLL, screenshot } from './fixtures';

// Dates follow the person's calendar (the browser's time zone); the API keeps plain days.
vi.setConfig({ testTimeout: 60_000 });
const chrome = browserForFile();

/** A signed-in page whose browser lives in `timezoneId` and, with `at`, whose clock reads that instant. */
const openIn = async (timezoneId: string, at?: Date, viewport?: Viewport) => {
  const page = await chrome.open(viewport, { as: admin(), context: { timezoneId } });
  // A fixed Date only: timers still run, so SWR, debounces and transitions behave as usual.
  if (at) await page.clock.setFixedTime(at);
  return page;
};

const ticketReports = (page: Page) => {
  const sent: URL[] = [];
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/v1/reports/tickets') sent.push(url);
  });
  return sent;
};

const newTicket = () => adminApi<Ticket>('tickets', { method: 'POST', body: { title: 'Local date check' } });

describe.each([
  // 20:00 UTC on Sunday 22 November: already Monday 23 November, 9 am, in Auckland.
  { zone: 'Pacific/Auckland', at: '2026-11-22T20:00:00Z', day: '2026-11-23', week: ['2026-11-23', '2026-11-29'] },
  // 05:00 UTC on Monday 30 November: still Sunday 29 November, 9 pm, in Los Angeles.
  { zone: 'America/Los_Angeles', at: '2026-11-30T05:00:00Z', day: '2026-11-29', week: ['2026-11-23', '2026-11-29'] },
])('in $zone at $at', ({ zone, at, day, week }) => {
  it('a new time entry defaults to the local date', async () => {
    const ticket = await newTicket();
    const page = await openIn(zone, new Date(at));
    await page.goto(`/tickets/?id=${ticket.id}`);
    const date = page.getByLabel('Date', { exact: true });
    await expect.poll(() => date.inputValue(), POLL).toBe(day);
  });

  it('This week is the local week, Monday to Sunday, and the API is asked for plain days', async () => {
    const page = await openIn(zone, new Date(at));
    const answered = apiResponse(page, /^reports\/timesheet\?/);
    await page.goto('/reports/timesheet/');
    await heading(page, 'Timesheet');
    const asked = new URL((await answered).url()).searchParams;
    expect([asked.get('from'), asked.get('to')]).toEqual(week);
    await page.getByText(await dayRangeInPage(page, week[0] as string, week[1] as string), { exact: true }).waitFor();
    // Away and back with "This week".
    await page.getByRole('button', { name: 'Previous week' }).click();
    await page.getByText(await dayRangeInPage(page, addDays(week[0] as string, -7), addDays(week[1] as string, -7)), { exact: true }).waitFor();
    await page.getByRole('button', { name: 'This week' }).click();
    await page.getByText(await dayRangeInPage(page, week[0] as string, week[1] as string), { exact: true }).waitFor();
  });
});

describe.each(['Pacific/Auckland', 'America/Los_Angeles'])('the dashboard in %s', (zone) => {
  // The real clock: the provider refuses a today more than a day from its own.
  it("asks for its figures with the person's today, which the provider accepts", async () => {
    const page = await openIn(zone);
    const answered = apiResponse(page, /^dashboard\/summary\?/);
    await page.goto('/dashboard/');
    const response = await answered;
    expect(response.status()).toBe(200);
    const localToday = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());
    expect(new URL(response.url()).searchParams.get('today')).toBe(localToday);
  });
});

describe('timesheet periods', () => {
  it('Month, then Previous, then Week stays in that month, and back to Month returns to it', async () => {
    const page = await openIn('Pacific/Auckland');
    await page.goto('/reports/timesheet/?view=month&from=2026-08-01');
    await page.getByText(await dayRangeInPage(page, '2026-08-01', '2026-08-31'), { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Previous month' }).click();
    await page.getByText(await dayRangeInPage(page, '2026-07-01', '2026-07-31'), { exact: true }).waitFor();
    await page.getByText('Week', { exact: true }).click();
    // The first week whose Thursday is in July: Monday 29 June to Sunday 5 July.
    await page.getByText(await dayRangeInPage(page, '2026-06-29', '2026-07-05'), { exact: true }).waitFor();
    await page.getByText('Month', { exact: true }).click();
    await page.getByText(await dayRangeInPage(page, '2026-07-01', '2026-07-31'), { exact: true }).waitFor();
  });

  it('keeps the person column and the header in view when a month scrolls sideways', async () => {
    for (const viewport of [undefined, PHONE]) {
      const page = await openIn('Pacific/Auckland', undefined, viewport);
      await page.goto('/reports/timesheet/?view=month');
      const region = page.getByRole('region', { name: 'Hours per person per day, scrolls sideways' });
      await region.waitFor();
      const person = page.getByRole('columnheader', { name: 'Person' });
      const before = await person.boundingBox();
      await region.evaluate((element) => element.scrollBy({ left: 2000 }));
      await expect.poll(() => region.evaluate((element) => element.scrollLeft), POLL).toBeGreaterThan(0);
      expect((await person.boundingBox())?.x).toBe(before?.x);
      const firstRow = region.getByRole('rowheader').first();
      expect((await firstRow.boundingBox())?.x).toBe(before?.x);
      await screenshot(page, `timesheet-month-scrolled-${viewport ? 'phone' : 'desktop'}`);
    }
  });
});

describe('ticket report dates', () => {
  it('typing a date digit by digit never crashes and asks only for whole valid ranges', async () => {
    const page = await openIn('Pacific/Auckland');
    const errors = watchErrors(page);
    const today = await page.evaluate(() => new Date().toLocaleDateString('sv'));
    const from = addDays(today, -364);
    const first = apiResponse(page, /^reports\/tickets\?/);
    await page.goto('/reports/ticket-report/');
    await first;
    const sent = ticketReports(page);
    const to = page.getByLabel('To', { exact: true });
    // Into the month segment, then mm dd yyyy at typing speed: the year passes through 0002, 0020 and 0202.
    await to.focus();
    const answered = apiResponse(page, /^reports\/tickets\?/);
    await page.keyboard.type('10312026', { delay: 80 });
    await answered;
    expect(await to.inputValue()).toBe('2026-10-31');
    expect(sent.map((url) => [url.searchParams.get('from'), url.searchParams.get('to')])).toEqual([[from, '2026-10-31']]);
    await expect.poll(() => new URL(page.url()).searchParams.get('range'), POLL).toBe(`${from}..2026-10-31`);
    expect(await page.getByText('Something went wrong').count()).toBe(0);
    expect(errors.pageErrors).toEqual([]);

    // A whole date before From: the message shows under the field, nothing is asked, no skeleton stays.
    // Focus arrives from outside, so it lands on the month again.
    await to.blur();
    await to.focus();
    await page.keyboard.type('01012024', { delay: 80 });
    await page.getByText('Must not be before from').waitFor();
    expect(sent).toHaveLength(1);
    await expect.poll(() => page.locator('[aria-busy="true"]').count(), POLL).toBe(0);
    expect(await page.locator('.mantine-Skeleton-root').count()).toBe(0);

    // More than 366 days: the shared schema's own message.
    await page.getByLabel('From', { exact: true }).focus();
    await page.keyboard.type('01012020', { delay: 80 });
    await page.getByText('The range must be at most 366 days').waitFor();
    expect(sent).toHaveLength(1);
    expect(errors.pageErrors).toEqual([]);
  });

  it('presets set the range in the address and ask for it', async () => {
    const page = await openIn('Pacific/Auckland');
    const today = await page.evaluate(() => new Date().toLocaleDateString('sv'));
    const first = apiResponse(page, /^reports\/tickets\?/);
    await page.goto('/reports/ticket-report/');
    await first;
    const expected = {
      'Last 7 days': { from: addDays(today, -6), to: today },
      'This month': { from: monthBounds(today).from, to: today },
      'Last quarter': quarterBounds(addMonths(quarterBounds(today).from, -3)),
    };
    for (const [label, range] of Object.entries(expected)) {
      const answered = apiResponse(page, new RegExp(`^reports/tickets\\?from=${range.from}&to=${range.to}&`));
      await page.getByRole('button', { name: label }).click();
      await answered;
      expect(new URL(page.url()).searchParams.get('range')).toBe(`${range.from}..${range.to}`);
      expect(await page.getByRole('button', { name: label }).getAttribute('aria-pressed')).toBe('true');
      expect(await page.getByLabel('From', { exact: true }).inputValue()).toBe(range.from);
    }
    // Back returns to the range before.
    await page.goBack();
    await expect.poll(() => page.getByLabel('From', { exact: true }).inputValue(), POLL).toBe(expected['This month'].from);
    await screenshot(page, 'ticket-report-presets-desktop');
  });

  it('a failed request leaves its message, not skeletons', async () => {
    const page = await openIn('Pacific/Auckland');
    await answer(page, '**/api/v1/reports/tickets?*', 500, { message: 'Injected failure' });
    await page.goto('/reports/ticket-report/');
    await page.getByText('Could not load the report').waitFor();
    await expect.poll(() => page.locator('.mantine-Skeleton-root').count(), POLL).toBe(0);
    expect(await page.locator('[aria-busy="true"]').count()).toBe(0);
  });

  it('works at phone width', async () => {
    const page = await openIn('America/Los_Angeles', undefined, PHONE);
    await page.goto('/reports/ticket-report/');
    await page.getByRole('button', { name: 'Last 7 days' }).click();
    await page.getByTestId('ticket-report-chart').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'ticket-report-presets-phone');
  });
});

