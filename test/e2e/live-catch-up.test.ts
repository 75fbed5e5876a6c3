import type { Page, WebSocketRoute } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Ticket } from '../../src/shared/types';
import { DESKTOP, POLL, adminApi, browserPerFile, drawerTitle, screenshot, tableLoaded, tableRows, uniqueTag } from './fixtures';

// After a gap in the live socket the page asks what changed since the last change it saw and
// re-reads only that (docs/architecture.md#live-updates), not everything it has open.
const chrome = browserPerFile();

/** The page's live sockets, passed through to the server, so the test can cut one as a dropped connection would. */
const liveSockets = async (page: Page) => {
  const sockets: WebSocketRoute[] = [];
  let hello = () => {};
  const helloSeen = new Promise<void>((resolve) => (hello = resolve));
  await page.routeWebSocket(/\/api\/v1\/live\?ticket=/, (ws) => {
    sockets.push(ws);
    const server = ws.connectToServer();
    ws.onMessage((message) => server.send(message));
    server.onMessage((message) => {
      if (String(message).includes('"hello"')) hello();
      ws.send(message);
    });
  });
  return { sockets, helloSeen };
};

/** The API calls the page makes from now on, as `METHOD path` without the query. */
const apiCalls = (page: Page) => {
  const calls: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/v1/')) calls.push(`${request.method()} ${url.pathname.slice('/api/v1/'.length)}${url.search}`);
  });
  return calls;
};

describe('catching up after the live socket drops', () => {
  it('re-reads only the list that changed, not the open drawer of an unchanged ticket', async () => {
    const tag = uniqueTag();
    const open = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Open ${tag}` } });
    const busy = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Busy ${tag}` } });
    const other = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Other ${tag}` } });
    const page = await chrome.open(DESKTOP);
    const { sockets, helloSeen } = await liveSockets(page);
    await page.goto(`/tickets/?q=${tag}&id=${open.id}`);
    await helloSeen;
    await tableLoaded(page, 'Tickets');
    await expect.poll(() => tableRows(page, 'Tickets').count(), POLL).toBe(3);
    await expect.poll(() => drawerTitle(page).textContent(), POLL).toContain(`Open ${tag}`);

    // The connection drops and the browser is offline while 20 changes are made elsewhere.
    await page.context().setOffline(true);
    sockets[0]?.close({ code: 1012, reason: 'Restarting' });
    await page.getByTestId('live-offline').waitFor();
    let version = busy.version;
    for (let change = 1; change <= 10; change += 1) {
      version = (await adminApi<Ticket>(`tickets/${busy.id}`, { method: 'PATCH', body: { title: `Busy ${tag} v${change}` } })).version;
    }
    for (let change = 1; change <= 10; change += 1) {
      await adminApi<Ticket>(`tickets/${other.id}`, { method: 'PATCH', body: { title: `Other ${tag} v${change}` } });
    }
    expect(version).toBe(busy.version + 10);

    const calls = apiCalls(page);
    await page.context().setOffline(false);
    await expect.poll(() => tableRows(page, 'Tickets').filter({ hasText: `Busy ${tag} v10` }).count(), POLL).toBe(1);
    await expect.poll(() => tableRows(page, 'Tickets').filter({ hasText: `Other ${tag} v10` }).count(), POLL).toBe(1);
    await expect.poll(() => page.getByTestId('live-offline').count(), POLL).toBe(0);
    await screenshot(page, 'live-catch-up');

    // A new ticket for the socket, the changes since the last seq, the lists they touch (the
    // tickets, and the week the drawer's lock note reads, which time logged on a ticket changes)
    // and the bell's notifications, which have no seq: the open drawer's ticket, its comments,
    // time, watchers and history, and the lookups are left be.
    const shape = calls.map((call) => call.replace(/\?.*$/, '').replace(/^GET tickets$/, 'GET tickets (the list)'));
    expect(shape.sort()).toEqual(['GET live/changes', 'GET notifications', 'GET tickets (the list)', 'GET timesheets', 'POST live/ticket']);
    expect(calls.find((call) => call.startsWith('GET live/changes'))).toMatch(/^GET live\/changes\?after=\d+$/);
    expect(await drawerTitle(page).textContent()).toContain(`Open ${tag}`);
  });
});
