import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Ticket, TimeEntry } from '../../src/shared/types';
import { DESKTOP, PHONE, adminApi, apiResponse, browserPerFile, drawer, expectText, fieldError, screenshot, toast, uniqueTag, type Viewport } from './fixtures';

const chrome = browserPerFile();

const makeTicket = () => adminApi<Ticket>('tickets', { method: 'POST', body: { title: `E2E durations ${uniqueTag()}`, priority: 'normal' } });

const openTicket = async (ticket: Ticket, viewport: Viewport = DESKTOP, theme: 'light' | 'dark' = 'light') => {
  const page = await chrome.open(viewport);
  await page.addInitScript((value) => localStorage.setItem('theme', value), theme);
  await page.goto(`/tickets/?id=${ticket.id}`);
  return page;
};

/** Types a duration into Minutes, logs it and returns the minutes the API was sent. */
const logTime = async (page: Page, ticket: Ticket, typed: string) => {
  const panel = drawer(page);
  await panel.getByLabel('Minutes').fill(typed);
  const posted = apiResponse(page, new RegExp(`^tickets/${ticket.id}/time-entries$`), 'POST');
  await panel.getByRole('button', { name: 'Log time' }).click();
  const answer = await posted;
  expect(answer.status()).toBe(201);
  await toast(page, 'success', 'Time logged').waitFor();
  return (answer.request().postDataJSON() as { minutes: unknown }).minutes;
};

describe('time typed the ways people write it', () => {
  it("logs '1h 30m' and '1:30' as 90 minutes each, never 130", async () => {
    const ticket = await makeTicket();
    const page = await openTicket(ticket);
    const total = drawer(page).getByTestId('time-total');
    await expectText(total, '0 min logged · 0 min billable');

    expect(await logTime(page, ticket, '1h 30m')).toBe(90);
    await expectText(total, '1 h 30 min logged · 1 h 30 min billable');
    // The field is empty again for the next entry.
    await expect.poll(() => drawer(page).getByLabel('Minutes').inputValue()).toBe('');

    expect(await logTime(page, ticket, '1:30')).toBe(90);
    await expectText(total, '3 h logged · 3 h billable');
    expect(await logTime(page, ticket, '1,5h')).toBe(90);
    await expectText(total, '4 h 30 min logged · 4 h 30 min billable');

    const { items } = await adminApi<{ items: TimeEntry[] }>(`tickets/${ticket.id}/time-entries`);
    expect(items.map((entry) => entry.minutes)).toEqual([90, 90, 90]);
  });

  it.each([
    ['1h 30x', 'Enter minutes (90), hours and minutes (1:30, 1h 30m) or hours (1.5h)'],
    ['130abc', 'Enter minutes (90), hours and minutes (1:30, 1h 30m) or hours (1.5h)'],
    ['25h', 'Must be at most 24 hours'],
    ['0', 'Must be at least 1 minute'],
    ['1.51h', 'Must be a whole number of minutes'],
  ])('refuses %j next to the field and sends nothing', async (typed, message) => {
    const ticket = await makeTicket();
    const page = await openTicket(ticket);
    const panel = drawer(page);
    let posts = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith(`/tickets/${ticket.id}/time-entries`)) posts += 1;
    });
    const minutes = panel.getByLabel('Minutes');
    await minutes.fill(typed);
    await panel.getByRole('button', { name: 'Log time' }).click();
    await expect.poll(() => fieldError(minutes)).toBe(message);
    expect(posts).toBe(0);
    expect(await minutes.inputValue()).toBe(typed);
    expect((await adminApi<{ items: TimeEntry[] }>(`tickets/${ticket.id}/time-entries`)).items).toEqual([]);
  });

  it.each([
    ['desktop', 'light', DESKTOP],
    ['desktop', 'dark', DESKTOP],
    ['phone', 'light', PHONE],
    ['phone', 'dark', PHONE],
  ] as const)('names the forms it takes under the field (%s, %s)', async (name, theme, viewport) => {
    const ticket = await makeTicket();
    const page = await openTicket(ticket, viewport, theme);
    const minutes = drawer(page).getByLabel('Minutes');
    const hintId = (await minutes.getAttribute('aria-describedby'))?.split(/\s+/).find((id) => id.endsWith('-description'));
    expect(hintId).toBeDefined();
    await expectText(page.locator(`[id="${hintId}"]`), 'Such as 90, 1:30, 1h 30m or 1.5h');
    await minutes.fill('1h 30x');
    await drawer(page).getByRole('button', { name: 'Log time' }).click();
    await expect.poll(() => fieldError(minutes)).not.toBeNull();
    await minutes.scrollIntoViewIfNeeded();
    await screenshot(page, `durations-${name}-${theme}`);
  });
});
