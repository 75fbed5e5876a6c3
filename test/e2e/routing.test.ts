import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  DESKTOP,
  SIGNED_IN_PAGES,
  VIEWPORTS,
  admin,
  browserForFile,
  countLoads,
  holdRequests,
  location,
  pause,
  snap,
  watchErrors,
} from './fixtures';

const chrome = browserForFile();

const USERS_CHUNK = '**/assets/UsersPage-*.js';
const TICKETS_CHUNK = '**/assets/TicketsPage-*.js';


const headingOne = (page: Page) => page.locator('h1');

/** True when nothing sticks out sideways, which on a phone means no sideways scrolling. */
const fitsWidth = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

const screenName = (path: string) => path.replace(/^\/|\/$/g, '').replace(/\//g, '-') || 'root';

describe('authenticated routes', () => {
  describe.each(VIEWPORTS)('at $name size', ({ name, viewport }) => {
    it.each(SIGNED_IN_PAGES)('$path renders its heading without errors', async ({ path, heading }) => {
      const page = await chrome.open(viewport, { as: admin() });
      const errors = watchErrors(page);
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await headingOne(page).first().waitFor();
      expect(await headingOne(page).allTextContents()).toEqual([heading]);
      expect(location(page).pathname).toBe(path);
      expect(await page.getByText('Something went wrong!').count()).toBe(0);
      expect(errors.pageErrors).toEqual([]);
      expect(errors.consoleErrors).toEqual([]);
      expect(await fitsWidth(page)).toBe(true);
      await snap(page, `route-${screenName(path)}-${name}`);
    });
  });

  it.each([
    { path: '/tickets/?id=abc', heading: 'Tickets' },
    { path: '/users/?id=-3', heading: 'Users' },
    { path: '/invoices/autofi/?lineId=1.5', heading: 'Autofi' },
    { path: '/invoices/gifs/statement?statementId=x', heading: 'GIFS statements' },
  ])('$path renders the page as if the invalid value were absent', async ({ path, heading }) => {
    const page = await chrome.open(DESKTOP, { as: admin() });
    const errors = watchErrors(page);
    await page.goto(path);
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    // No record panel opens for a value that is not a positive whole number.
    await pause(300);
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await page.getByText('Something went wrong!').count()).toBe(0);
    expect(errors.pageErrors).toEqual([]);
  });

  it('reloads a deep link with search values', async () => {
    const page = await chrome.open(DESKTOP, { as: admin() });
    await page.goto('/invoices/gifs/statement?statementId=3');
    await page.getByRole('heading', { name: 'GIFS statements', level: 1 }).waitFor();
    const response = await page.reload();
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-type']).toMatch(/^text\/html/);
    await page.getByRole('heading', { name: 'GIFS statements', level: 1 }).waitFor();
    expect(location(page).pathname).toBe('/invoices/gifs/statement');
    expect(location(page).search).toBe('?statementId=3');
  });
});

describe('fallback screens', () => {
  it.each(VIEWPORTS)('shows Not Found for an unknown address ($name)', async ({ name, viewport }) => {
    const page = await chrome.open(viewport);
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: 'Not Found', level: 1 }).waitFor();
    expect(location(page).pathname).toBe('/no/such/page');
    expect(await fitsWidth(page)).toBe(true);
    await snap(page, `not-found-${name}`);
  });

  it.each(VIEWPORTS)(
    'reloads once when a page chunk fails, then shows the error screen ($name)',
    async ({ name, viewport }) => {
      const page = await chrome.open(viewport, { as: admin() });
      const errors = watchErrors(page);
      await page.route(USERS_CHUNK, (route) => route.abort());
      const loads = countLoads(page);

      await page.goto('/users/');
      const heading = page.getByRole('heading', { name: 'Something went wrong!', level: 1 });
      await expect.poll(async () => loads.loads > 2 || (await heading.isVisible()), { timeout: 10_000 }).toBe(true);
      // Give a further reload, if one were coming, time to happen.
      await pause(2500);
      expect(loads.loads).toBe(2);
      await heading.waitFor();
      await snap(page, `error-screen-${name}`);
      expect(await page.evaluate(() => sessionStorage.getItem('staff-app-chunk-reload'))).toBeNull();
      expect(errors.pageErrors).toEqual([]);

      const details = page.getByTestId('error-details');
      expect(await details.count()).toBe(0);
      await page.getByRole('button', { name: 'Show Error' }).click();
      await details.waitFor();
      expect(await details.textContent()).toMatch(/UsersPage|dynamically imported module|Failed to fetch/i);
      await snap(page, `error-screen-details-${name}`);
      await page.getByRole('button', { name: 'Hide Error' }).click();
      await details.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Show Error' }).waitFor();
    },
  );
});

describe('link preloading', () => {
  it('logs an error, and does not reload, when a preload fails', async () => {
    const page = await chrome.open(DESKTOP, { as: admin() });
    const errors = watchErrors(page);
    await page.route(TICKETS_CHUNK, (route) => route.abort());
    const loads = countLoads(page);

    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    const logged = () => errors.consoleErrors.some((text) => text.startsWith('Error preloading route!'));
    await expect.poll(() => logged() || loads.loads > 1, { timeout: 5000 }).toBe(true);
    await pause(1000);
    // A failed preload of another page must not reload the page the user is on.
    expect(loads.loads).toBe(1);
    expect(logged()).toBe(true);
    expect(location(page).pathname).toBe('/dashboard');
  });

  it('fetches the Tickets code before Tickets is clicked', async () => {
    const page = await chrome.open(DESKTOP, { as: admin() });
    // The wait starts before the visit, so it has to cover the dashboard's own load as well.
    const chunk = page.waitForRequest(TICKETS_CHUNK, { timeout: 20_000 });
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    expect((await chunk).url()).toMatch(/\/assets\/TicketsPage-[\w-]+\.js$/);
    expect(location(page).pathname).toBe('/dashboard');
  });
});

describe('navigation progress', () => {
  it('shows the progress bar for at least 250 ms on a quick navigation', async () => {
    const page = await chrome.open(DESKTOP, { as: admin() });
    // The preload's request for the Tickets code is held until the click, then answered 20 ms
    // later: a real but quick wait. (Rendering the page on this machine may itself take a good
    // part of 250 ms, so the bar's lifetime is what is measured, not how long it lingers.)
    const held = await holdRequests(page, TICKETS_CHUNK);
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await held.requested;
    // Let the Tickets page's other code arrive, so the held chunk is all the click waits for.
    await pause(1500);

    await page.evaluate(() => {
      const record: Timeline = {};
      (window as unknown as { timeline: Timeline }).timeline = record;
      const bar = () => document.querySelector('[data-testid="navigation-progress"]') !== null;
      const arrived = () => document.querySelector('h1')?.textContent === 'Tickets';
      new MutationObserver(() => {
        const now = performance.now();
        if (bar() && record.shown === undefined) record.shown = now;
        if (arrived() && record.arrived === undefined) record.arrived = now;
        if (!bar() && record.shown !== undefined && record.hidden === undefined) record.hidden = now;
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    });

    const tickets = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tickets', exact: true });
    await tickets.click();
    setTimeout(held.release, 20);
    await page.getByRole('heading', { name: 'Tickets', level: 1 }).waitFor();
    await page.waitForFunction(() => (window as unknown as { timeline: Timeline }).timeline.hidden !== undefined);
    const { shown, arrived, hidden } = await page.evaluate(() => (window as unknown as { timeline: Required<Timeline> }).timeline);

    expect(hidden - shown).toBeGreaterThanOrEqual(250);
    expect(hidden - shown).toBeLessThan(1500);
    // The bar never goes before the page it announces has arrived.
    expect(hidden).toBeGreaterThanOrEqual(arrived);
  });
});

interface Timeline {
  shown?: number;
  arrived?: number;
  hidden?: number;
}
