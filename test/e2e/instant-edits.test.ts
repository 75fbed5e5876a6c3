import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page, Request, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { THEME_STORAGE_KEY } from '../../src/client/lib/constants';
import type { Ticket, TicketWatchers } from '../../src/shared/types';
import { DESKTOP, PHONE, POLL, adminApi, adminSession, apiAs, browserPerFile, drawer, settled, makeAccount, screenshot, sessionFor, tableLoaded, toast, toastText, uniqueTag } from './fixtures';

// Instant edits (docs/architecture.md#instant-edits): a ticket's status, priority and assignee, a
// notification marked read and Watch / Unwatch show on the page while the request is still held
// back here, and a refusal puts the old value back with a toast saying why, leaving typed text alone.
const chrome = browserPerFile();

/** How a held request ends: sent on to the server, answered here with a status, or failed as a network error. */
type Ending = { kind: 'continue' } | { kind: 'fulfill'; status: number; message: string } | { kind: 'abort' };

/**
 * Holds the next `method` request to `path` (after /api/v1/) in the browser: the server has not
 * seen it until `release()`, so whatever the page shows before then was drawn without its answer.
 */
const holdNext = async (page: Page, method: string, path: RegExp) => {
  let arrived!: (request: Request) => void;
  const requested = new Promise<Request>((resolve) => (arrived = resolve));
  let release!: (ending: Ending) => void;
  const released = new Promise<Ending>((resolve) => (release = resolve));
  const pattern = (url: URL) => url.pathname.startsWith('/api/v1/') && path.test(url.pathname.slice('/api/v1/'.length));
  let taken = false;
  await page.route(pattern, async (route: Route) => {
    if (taken || route.request().method() !== method) return route.fallback();
    taken = true;
    arrived(route.request());
    const ending = await released;
    if (ending.kind === 'continue') return route.continue();
    if (ending.kind === 'abort') return route.abort('failed');
    return route.fulfill({ status: ending.status, contentType: 'application/json', body: JSON.stringify({ message: ending.message }) });
  });
  return { requested, release };
};

const makeTicket = (fields: Record<string, unknown> = {}) => adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Instant ${uniqueTag()}`, ...fields } });
const ticketNow = (id: number) => adminApi<Ticket>(`tickets/${id}`);

const listRow = (page: Page, ticket: Ticket) => page.getByRole('table', { name: 'Tickets', exact: true }).locator('tbody tr').filter({ hasText: ticket.title });
const fact = (scope: Locator, noun: string, id: number) => scope.getByRole('button', { name: new RegExp(`^Change ${noun} of #${id}:`) });

/** Opens the fact's menu and picks `choice`. */
const pick = async (page: Page, scope: Locator, noun: string, id: number, choice: string) => {
  await fact(scope, noun, id).click();
  await page.getByRole('menuitem', { name: choice, exact: true }).click();
};

const openList = async (page: Page, ticket: Ticket) => {
  await page.goto(`/tickets/?q=${encodeURIComponent(ticket.title)}`);
  await tableLoaded(page, 'Tickets');
  await listRow(page, ticket).waitFor();
};

const openDrawer = async (page: Page, ticket: Ticket) => {
  await page.goto(`/tickets/?q=${encodeURIComponent(ticket.title)}&id=${ticket.id}`);
  await drawer(page).getByTestId('ticket-view').waitFor();
  await tableLoaded(page, 'Tickets');
};

const errorToast = async (page: Page, title: string) => {
  const shown = toast(page, 'error', title);
  await shown.first().waitFor();
  return toastText(shown);
};

describe('ticket facts change before the answer', () => {
  it('a status picked in the list shows while its PATCH is held, and carries If-Match', async () => {
    const ticket = await makeTicket();
    const page = await chrome.open(DESKTOP);
    await openList(page, ticket);
    const row = listRow(page, ticket);
    expect(await fact(row, 'status', ticket.id).textContent()).toBe('Open');

    const held = await holdNext(page, 'PATCH', new RegExp(`^tickets/${ticket.id}$`));
    await pick(page, row, 'status', ticket.id, 'In progress');
    const request = await held.requested;
    // The server has not even seen the request yet.
    await expect.poll(() => fact(row, 'status', ticket.id).textContent(), POLL).toBe('In progress');
    expect((await ticketNow(ticket.id)).status).toBe('open');
    expect(request.headers()['if-match']).toBe(`"${ticket.version}"`);
    expect(request.postDataJSON()).toEqual({ status: 'in_progress' });
    // Picking the row's menu did not open the ticket.
    expect(await page.getByRole('dialog').count()).toBe(0);
    await screenshot(page, 'instant-edits-list');

    held.release({ kind: 'continue' });
    await toast(page, 'success', 'Status changed').first().waitFor();
    expect((await ticketNow(ticket.id)).status).toBe('in_progress');
    expect(await fact(row, 'status', ticket.id).textContent()).toBe('In progress');
  });

  it('an assignee picked in the list shows at once; a 403 puts "Unassigned" back and says why', async () => {
    const robin = await makeAccount('staff', 'Robin');
    const robinName = `${robin.firstName} ${robin.surname}`;
    const ticket = await makeTicket();
    const page = await chrome.open(DESKTOP);
    await openList(page, ticket);
    const row = listRow(page, ticket);

    const held = await holdNext(page, 'PATCH', new RegExp(`^tickets/${ticket.id}$`));
    await pick(page, row, 'assignee', ticket.id, robinName);
    await held.requested;
    await expect.poll(() => fact(row, 'assignee', ticket.id).textContent(), POLL).toBe(robinName);
    held.release({ kind: 'fulfill', status: 403, message: 'Only an admin may assign this ticket' });
    expect(await errorToast(page, 'Assignee not changed')).toContain('Only an admin may assign this ticket');
    await expect.poll(() => fact(row, 'assignee', ticket.id).textContent(), POLL).toBe('Unassigned');
    expect((await ticketNow(ticket.id)).assigneeId).toBeNull();
  });

  it('a priority picked in the drawer shows there and in the list before the answer', async () => {
    const ticket = await makeTicket();
    const page = await chrome.open(DESKTOP);
    await openDrawer(page, ticket);
    const view = drawer(page).getByTestId('ticket-view');

    const held = await holdNext(page, 'PATCH', new RegExp(`^tickets/${ticket.id}$`));
    await pick(page, view, 'priority', ticket.id, 'Urgent');
    const request = await held.requested;
    await expect.poll(() => fact(view, 'priority', ticket.id).textContent(), POLL).toBe('Urgent');
    await expect.poll(() => fact(listRow(page, ticket), 'priority', ticket.id).textContent(), POLL).toBe('Urgent');
    expect(request.headers()['if-match']).toBe(`"${ticket.version}"`);
    // The picks stayed in the drawer: it is still open.
    expect(await drawer(page).isVisible()).toBe(true);
    await screenshot(page, 'instant-edits-drawer');
    held.release({ kind: 'continue' });
    await toast(page, 'success', 'Priority changed').first().waitFor();
    expect((await ticketNow(ticket.id)).priority).toBe('urgent');
  });

  it('refusals in the drawer (409, 403, network) put the old value back with their reason; the typed comment stays', async () => {
    const ticket = await makeTicket();
    const page = await chrome.open(DESKTOP);
    await openDrawer(page, ticket);
    const view = drawer(page).getByTestId('ticket-view');
    const comment = drawer(page).getByRole('textbox', { name: 'New comment' });
    await comment.fill('Half a reply, still being typed');

    const refusals: [Ending, string][] = [
      [{ kind: 'fulfill', status: 409, message: 'A closed ticket cannot be put on hold' }, 'A closed ticket cannot be put on hold'],
      [{ kind: 'fulfill', status: 403, message: 'Not allowed for your role' }, 'Not allowed for your role'],
      [{ kind: 'abort' }, 'Could not reach the server'],
    ];
    for (const [ending, reason] of refusals) {
      const held = await holdNext(page, 'PATCH', new RegExp(`^tickets/${ticket.id}$`));
      await pick(page, view, 'status', ticket.id, 'On hold');
      await held.requested;
      await expect.poll(() => fact(view, 'status', ticket.id).textContent(), POLL).toBe('On hold');
      held.release(ending);
      expect(await errorToast(page, 'Status not changed')).toContain(reason);
      await expect.poll(() => fact(view, 'status', ticket.id).textContent(), POLL).toBe('Open');
      expect(await fact(listRow(page, ticket), 'status', ticket.id).textContent()).toBe('Open');
      expect(await comment.inputValue()).toBe('Half a reply, still being typed');
      await page.evaluate(() => document.querySelectorAll('[data-toast-id]').forEach((node) => node.remove()));
    }
    expect((await ticketNow(ticket.id)).status).toBe('open');
  });

  it('a 412 shows the ticket as it now is, with the conflict message; the typed comment stays', async () => {
    const ticket = await makeTicket();
    const page = await chrome.open(DESKTOP);
    await openDrawer(page, ticket);
    const view = drawer(page).getByTestId('ticket-view');
    const comment = drawer(page).getByRole('textbox', { name: 'New comment' });
    await comment.fill('Typed before the conflict');

    const held = await holdNext(page, 'PATCH', new RegExp(`^tickets/${ticket.id}$`));
    await pick(page, view, 'status', ticket.id, 'Resolved');
    await held.requested;
    await expect.poll(() => fact(view, 'status', ticket.id).textContent(), POLL).toBe('Resolved');
    // Someone else moves the ticket on before the held request reaches the server, which then answers 412.
    await adminApi(`tickets/${ticket.id}`, { method: 'PATCH', body: { status: 'on_hold' } });
    held.release({ kind: 'continue' });
    expect(await errorToast(page, 'Status not changed')).toContain('Someone else changed this record after you opened it');
    await expect.poll(() => fact(view, 'status', ticket.id).textContent(), POLL).toBe('On hold');
    expect(await comment.inputValue()).toBe('Typed before the conflict');
    expect((await ticketNow(ticket.id)).status).toBe('on_hold');
  });
});

describe('the facts as buttons', () => {
  const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
  for (const theme of ['light', 'dark'] as const) {
    it(`are axe-clean with a menu open, ${theme}, at phone width, and work by keyboard`, async () => {
      const ticket = await makeTicket();
      const page = await chrome.open(PHONE, { context: { reducedMotion: 'reduce' } });
      await page.addInitScript(({ key, scheme }) => localStorage.setItem(key, scheme), { key: THEME_STORAGE_KEY, scheme: theme });
      await openDrawer(page, ticket);
      await settled(drawer(page));
      const view = drawer(page).getByTestId('ticket-view');
      await fact(view, 'priority', ticket.id).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('menu').waitFor();
      const { violations } = await new AxeBuilder({ page }).withTags(TAGS).include('[data-testid="ticket-view"]').include('[role="menu"]').analyze();
      expect(violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
      await screenshot(page, `instant-edits-menu-${theme}-phone`);
      // Arrows move through the choices (Up from the top wraps to the last) and Enter picks one.
      await page.keyboard.press('ArrowUp');
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim()), POLL).toBe('Urgent');
      await page.keyboard.press('Enter');
      await expect.poll(() => fact(view, 'priority', ticket.id).textContent(), POLL).toBe('Urgent');
      await expect.poll(async () => (await ticketNow(ticket.id)).priority, POLL).toBe('urgent');
      expect(await drawer(page).isVisible()).toBe(true);
    });
  }
});

describe('watching and the bell before the answer', () => {
  it('Watch shows at once; a refused Unwatch puts Watching back with the reason', async () => {
    const ticket = await makeTicket();
    const page = await chrome.open(DESKTOP);
    await openDrawer(page, ticket);
    const button = drawer(page).getByTestId('watch-button');
    const watchers = drawer(page).getByTestId('watchers');
    // The reporter watches what they report: start from not watching.
    await adminApi(`tickets/${ticket.id}/watchers/me`, { method: 'DELETE' });
    await page.reload();
    await expect.poll(() => button.textContent(), POLL).toBe('Watch');

    const held = await holdNext(page, 'PUT', new RegExp(`^tickets/${ticket.id}/watchers/me$`));
    await button.click();
    await held.requested;
    await expect.poll(() => button.textContent(), POLL).toBe('Unwatch');
    expect(await watchers.textContent()).toContain('Demo Admin');
    held.release({ kind: 'continue' });
    await toast(page, 'success', `Watching #${ticket.id}`).first().waitFor();
    expect((await adminApi<TicketWatchers>(`tickets/${ticket.id}/watchers`)).watching).toBe(true);

    // By keyboard this time (the success toast sits over the drawer's top for a while).
    const refused = await holdNext(page, 'DELETE', new RegExp(`^tickets/${ticket.id}/watchers/me$`));
    await button.focus();
    await page.keyboard.press('Enter');
    await refused.requested;
    await expect.poll(() => button.textContent(), POLL).toBe('Watch');
    refused.release({ kind: 'fulfill', status: 403, message: 'Watching is not open to you' });
    expect(await errorToast(page, 'Watching not changed')).toContain('Watching is not open to you');
    await expect.poll(() => button.textContent(), POLL).toBe('Unwatch');
    expect(await watchers.textContent()).toContain('Demo Admin');
  });

  it('a notification marked read shows read while the request is held; a network failure puts it back as unread', async () => {
    const casey = await makeAccount('staff', 'Casey');
    const call = apiAs((await sessionFor(casey)).token);
    const { userId } = await adminSession();
    const first = (await call<Ticket>('tickets', { method: 'POST', body: { title: `Bell ${uniqueTag()}`, assigneeId: userId } })).body;
    const page = await chrome.open(DESKTOP);
    await page.goto('/tickets/');
    const bell = page.getByTestId('bell');
    await bell.click();
    const notice = page.getByTestId('notification').filter({ hasText: `#${first.id}` });
    await expect.poll(() => notice.textContent(), POLL).toContain('(unread)');
    const countBefore = await bell.getAttribute('aria-label');

    const held = await holdNext(page, 'POST', /^notifications\/read$/);
    await page.getByRole('button', { name: 'Mark all read' }).click();
    await held.requested;
    await expect.poll(() => notice.textContent(), POLL).not.toContain('(unread)');
    expect(await bell.getAttribute('aria-label')).toBe('Notifications, 0 unread notifications');
    held.release({ kind: 'abort' });
    expect(await errorToast(page, 'Notifications not marked read')).toContain('Could not reach the server');
    await expect.poll(() => notice.textContent(), POLL).toContain('(unread)');
    expect(await bell.getAttribute('aria-label')).toBe(countBefore);

    const again = await holdNext(page, 'POST', /^notifications\/read$/);
    await page.getByRole('button', { name: 'Mark all read' }).click();
    await again.requested;
    await expect.poll(() => notice.textContent(), POLL).not.toContain('(unread)');
    again.release({ kind: 'continue' });
    await expect.poll(async () => (await adminApi<{ items: { entityId: number; readAt: string | null }[] }>('notifications?page=1&pageSize=50')).items.find((item) => item.entityId === first.id)?.readAt ?? null, POLL).not.toBeNull();
  });
});
