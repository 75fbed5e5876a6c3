import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { DashboardSummary } from '../../src/shared/types';
import {
  PHONE,
  POLL,
  adminApi,
  adminSession,
  browserPerFile,
  dayInPage,
  drawerTitle,
  expectFullWidthDrawer,
  expectText,
  heading,
  moneyInPage,
  numberInPage,
  screenshot,
  signInAsAdmin,
  stat,
  textOf,
} from './fixtures';

const chrome = browserPerFile();

/** Minutes as the dashboard writes them: '1 h 30 min', '2 h', '45 min'. */
const minutesText = (minutes: number) => {
  const h = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return h ? `${h} h${rest ? ` ${rest} min` : ''}` : `${rest} min`;
};

describe('dashboard', () => {
  it('shows the summary figures the API reports', async () => {
    const summary = await adminApi<DashboardSummary>('dashboard/summary');
    const page = await chrome.open();
    await page.goto('/dashboard/');
    await heading(page, 'Dashboard');
    await page.getByText(`Welcome back, ${(await adminSession()).firstName}.`).waitFor();
    const expected: [string, string][] = [
      ['stat-open-tickets', await numberInPage(page, summary.openTickets)],
      ['stat-my-open-tickets', await numberInPage(page, summary.myOpenTickets)],
      ['stat-overdue', await numberInPage(page, summary.overdue)],
      ['stat-resolved-last-7-days', await numberInPage(page, summary.resolvedLast7Days)],
      ['stat-hours-this-week', minutesText(summary.minutesThisWeek)],
      ['stat-unbilled', await moneyInPage(page, summary.unbilledCents)],
    ];
    await expect
      .poll(async () => Promise.all(expected.map(async ([id]) => [id, await textOf(stat(page, id))])), POLL)
      .toEqual(expected);
    // The demo data has open work, so these are real counts rather than zeros.
    expect(summary.openTickets).toBeGreaterThan(0);
    expect(summary.unbilledCents).toBeGreaterThan(0);
    await screenshot(page, 'dashboard-desktop');
  });

  it('draws the opened vs resolved chart', async () => {
    const summary = await adminApi<DashboardSummary>('dashboard/summary');
    const page = await chrome.open();
    await page.goto('/dashboard/');
    await heading(page, 'Dashboard');
    const chart = page.getByTestId('dashboard-chart');
    const lines = chart.locator('path[data-series]');
    await expect.poll(() => lines.evaluateAll((paths) => paths.map((path) => path.getAttribute('data-series'))), POLL).toEqual(['opened', 'resolved']);
    // One point per day of the series: a line through n points has n - 1 segments.
    for (const d of await lines.evaluateAll((paths) => paths.map((path) => path.getAttribute('d') ?? ''))) {
      expect(d.split('L')).toHaveLength(summary.openedVsResolved.length);
    }
    // The latest day is always labelled, day and month in the page's locale ("23 Nov").
    const lastDay = await page.evaluate(
      (day) => new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' }),
      summary.openedVsResolved.at(-1)?.day ?? '',
    );
    expect(lastDay).toMatch(/^(\d{1,2} \w{3}|\w{3} \d{1,2})$/);
    expect(await chart.locator('text[data-axis-label]').last().textContent()).toBe(lastDay);
    // The figures are in the chart's text alternative, and pointing at the last day shows its values.
    const opened = summary.openedVsResolved.reduce((sum, day) => sum + day.opened, 0);
    expect(await chart.getByRole('img').getAttribute('aria-label')).toContain(`${opened} tickets opened`);
    const plot = await chart.locator('svg').boundingBox();
    if (!plot) throw new Error('the chart has no size');
    await page.mouse.move(plot.x + plot.width - 14, plot.y + plot.height / 2);
    const last = summary.openedVsResolved.at(-1);
    const tooltipFor = async (day: DashboardSummary['openedVsResolved'][number] | undefined) =>
      `${await dayInPage(page, day?.day ?? '')}Opened: ${day?.opened}Resolved: ${day?.resolved}`;
    await expectText(page.getByTestId('dashboard-chart-tooltip'), await tooltipFor(last));
    // The keyboard reads the same values: Home, then one step right, then End.
    await page.mouse.move(0, 0);
    await chart.getByRole('img').focus();
    await page.keyboard.press('Home');
    await expectText(page.getByTestId('dashboard-chart-tooltip'), await tooltipFor(summary.openedVsResolved[0]));
    await page.keyboard.press('ArrowRight');
    await expectText(page.getByTestId('dashboard-chart-tooltip'), await tooltipFor(summary.openedVsResolved[1]));
    await page.keyboard.press('End');
    await expectText(page.getByTestId('dashboard-chart-tooltip'), await tooltipFor(last));
    await page.keyboard.press('Tab');
    await expect.poll(() => page.getByTestId('dashboard-chart-tooltip').count(), POLL).toBe(0);
  });

  it('asks for its figures once per visit, and on opening its address before its own code has arrived', async () => {
    const visit = async (go: (page: Page) => Promise<unknown>, signedIn: boolean) => {
      const page = await chrome.open(undefined, { signedIn });
      const events: string[] = [];
      const isCode = (url: string) => /\/assets\/DashboardPage-[\w-]+\.js$/.test(new URL(url).pathname);
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/api/v1/dashboard/summary') events.push('summary asked');
      });
      page.on('requestfinished', (request) => {
        if (isCode(request.url())) events.push('code arrived');
      });
      await go(page);
      await heading(page, 'Dashboard');
      await stat(page, 'stat-open-tickets').filter({ hasText: /\d/ }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(events.filter((event) => event === 'summary asked')).toHaveLength(1);
      return events;
    };
    const opened = await visit((page) => page.goto('/dashboard/'), true);
    expect(opened.indexOf('summary asked')).toBeLessThan(opened.indexOf('code arrived'));
    // Signing in fetches the code while the password is checked; the data follows the token.
    await visit((page) => signInAsAdmin(page), false);
  });

  it('a recent ticket link leads to /tickets/?id=… with that ticket open', async () => {
    const { recentTickets } = await adminApi<DashboardSummary>('dashboard/summary');
    const [ticket] = recentTickets;
    if (!ticket) throw new Error('the dashboard lists no recent tickets');
    const page = await chrome.open();
    await page.goto('/dashboard/');
    await heading(page, 'Dashboard');
    const links = page.locator('main a[href^="/tickets/?id="]');
    await expect.poll(() => links.count(), POLL).toBe(recentTickets.length);
    const link = page.getByRole('link', { name: `#${ticket.id} ${ticket.title}` });
    expect(await link.getAttribute('href')).toBe(`/tickets/?id=${ticket.id}`);
    await link.click();
    await page.waitForURL((url) => url.pathname === '/tickets/' && url.searchParams.get('id') === String(ticket.id));
    await heading(page, 'Tickets');
    await expectText(drawerTitle(page), `#${ticket.id} ${ticket.title}`);
  });

  it('at phone width renders its h1, and a recent ticket opens in a full-width drawer', async () => {
    const { recentTickets } = await adminApi<DashboardSummary>('dashboard/summary');
    const page = await chrome.open(PHONE);
    await page.goto('/dashboard/');
    await heading(page, 'Dashboard');
    await page.getByTestId('dashboard-chart').locator('path[data-series]').first().waitFor();
    await screenshot(page, 'dashboard-phone');
    await page.getByRole('link', { name: `#${recentTickets[0]?.id} ` }).first().click();
    await heading(page, 'Tickets');
    await expectFullWidthDrawer(page);
    await screenshot(page, 'dashboard-ticket-phone');
  });
});
