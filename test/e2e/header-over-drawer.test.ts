import type { Locator, Page, WebSocketRoute } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Ticket } from '../../src/shared/types';
import { POLL, VIEWPORTS, adminApi, adminSession, apiAs, browserPerFile, drawer, drawerTitle, liveHello, makeAccount, screenshot, sessionFor, settled, uniqueTag } from './fixtures';

// The header's bell and offline badge while a record drawer is open: the drawer starts below the
// header, so both are seen and the bell is clicked there, not the drawer's shade over it.
const chrome = browserPerFile();

/** Whether a click at the centre of `target` lands on it: nothing is drawn over it. */
const uncovered = (target: Locator) =>
  target.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return hit !== null && element.contains(hit);
  });

/**
 * The live socket, passed through to the server until `cut()`: then it closes as a dropped
 * connection does, and every new attempt closes at once, so the page stays offline.
 */
const cuttableLive = async (page: Page) => {
  let cut = false;
  const open: WebSocketRoute[] = [];
  await page.routeWebSocket(/\/api\/v1\/live/, (socket) => {
    if (cut) return void socket.close({ code: 1006 });
    socket.connectToServer();
    open.push(socket);
  });
  return {
    cut: async () => {
      cut = true;
      await Promise.all(open.splice(0).map((socket) => socket.close({ code: 1006 })));
    },
  };
};

const openTicket = async (page: Page) => {
  const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Header ${uniqueTag()}` } });
  const hello = liveHello(page);
  await page.goto(`/tickets/?id=${ticket.id}`);
  await hello;
  await expect.poll(() => drawerTitle(page).textContent(), POLL).toBe(`#${ticket.id} ${ticket.title}`);
  await settled(drawer(page));
};

describe('the notifications over an open drawer', () => {
  it('their list scrolls with the wheel: the drawer holds the page still, not the bell', async () => {
    const casey = await makeAccount('staff', 'Casey');
    const { token } = await sessionFor(casey);
    const { userId } = await adminSession();
    for (let i = 0; i < 14; i += 1) {
      await apiAs(token)('tickets', { method: 'POST', body: { title: `For the list ${uniqueTag()}`, assigneeId: userId } });
    }
    const page = await chrome.open();
    await openTicket(page);
    await page.getByTestId('bell').click();
    const list = page.getByRole('list', { name: 'Notifications' });
    await expect.poll(() => list.getByRole('listitem').count(), POLL).toBeGreaterThan(10);
    expect(await list.evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(true);
    await list.hover();
    await page.mouse.wheel(0, 400);
    await expect.poll(() => list.evaluate((element) => element.scrollTop), POLL).toBeGreaterThan(0);
  });
});

describe.each(VIEWPORTS)('the header over an open drawer, $name', ({ name, viewport }) => {
  it('the bell is in sight and opens the notifications; the drawer stays open', async () => {
    const page = await chrome.open(viewport);
    await openTicket(page);
    const bell = page.getByTestId('bell');
    expect(await uncovered(bell)).toBe(true);
    await bell.click();
    await page.getByText('Notifications', { exact: true }).waitFor();
    expect(await drawerTitle(page).isVisible()).toBe(true);
    await screenshot(page, `header-over-drawer-bell-${name}`);
  });

  it('the offline badge shows beside the open drawer', async () => {
    const page = await chrome.open(viewport);
    const live = await cuttableLive(page);
    await openTicket(page);
    await live.cut();
    const badge = page.getByTestId('live-offline');
    await badge.waitFor();
    expect(await uncovered(badge)).toBe(true);
    // Its words fit, on a phone too (there it says "Offline" alone).
    expect(await badge.evaluate((element) => [element, ...element.querySelectorAll('*')].every((part) => part.scrollWidth <= part.clientWidth))).toBe(true);
    expect(await uncovered(page.getByTestId('bell'))).toBe(true);
    await screenshot(page, `header-over-drawer-offline-${name}`);
  });
});
