import { describe, expect, it } from 'vitest';
import type { DashboardSummary } from '../../src/shared/types';
import { PHONE } from './browser';
import {
  POLL,
  adminApi,
  adminSession,
  browserPerFile,
  drawerTitle,
  expectFullWidthDrawer,
  expectText,
  heading,
  moneyInPage,
  numberInPage,
  screenshot,
  stat,
  textOf,
} from './pages';

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
    await chart.locator('svg.recharts-surface').first().waitFor();
    const curves = chart.locator('.recharts-area-curve');
    await expect.poll(() => curves.evaluateAll((paths) => paths.map((path) => path.getAttribute('name'))), POLL).toEqual(['opened', 'resolved']);
    // The curves are drawn, not empty paths.
    for (const d of await curves.evaluateAll((paths) => paths.map((path) => path.getAttribute('d') ?? ''))) expect(d.length).toBeGreaterThan(20);
    // One x-axis point per day of the series, labelled MM-DD.
    const lastDay = summary.openedVsResolved.at(-1)?.day.slice(5);
    expect(lastDay).toMatch(/^\d{2}-\d{2}$/);
    await chart.locator('.recharts-cartesian-axis-tick-value', { hasText: lastDay ?? 'none' }).first().waitFor();
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
    await page.getByTestId('dashboard-chart').locator('svg').first().waitFor();
    await screenshot(page, 'dashboard-phone');
    await page.getByRole('link', { name: `#${recentTickets[0]?.id} ` }).first().click();
    await heading(page, 'Tickets');
    await expectFullWidthDrawer(page);
    await screenshot(page, 'dashboard-ticket-phone');
  });
});
