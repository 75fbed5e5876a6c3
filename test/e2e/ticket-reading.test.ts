import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { THEME_STORAGE_KEY } from '../../src/client/lib/constants';
import { mentionToken } from '../../src/shared/mentions';
import type { Ticket, TicketComment, TimeEntry } from '../../src/shared/types';
import { DESKTOP, POLL, adminApi, apiAs, browserPerFile, drawer, liveHello, makeAccount, screenshot, sessionFor, settled, uniqueTag } from './fixtures';

// A ticket reads as a page (title, facts, description as text, then the conversation) with Edit
// in place; one reply can also move the status and log time; a notification of a comment opens
// the ticket at that comment (docs/architecture.md#tickets).
const chrome = browserPerFile();
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const SMALL_PHONE = { width: 375, height: 667 };

const colleague = async () => {
  const account = await makeAccount('staff', 'Robin');
  const { token } = await sessionFor(account);
  return { ...account, call: apiAs(token), name: `${account.firstName} ${account.surname}` };
};

const makeTicket = (fields: Record<string, unknown> = {}) =>
  adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Reading ${uniqueTag()}`, description: 'First line\nSecond line', ...fields } });
const commentsOf = async (ticketId: number) => (await adminApi<{ items: TicketComment[] }>(`tickets/${ticketId}/comments`)).items;
const timeOf = async (ticketId: number) => (await adminApi<{ items: TimeEntry[] }>(`tickets/${ticketId}/time-entries`)).items;
const statusOf = async (ticketId: number) => (await adminApi<Ticket>(`tickets/${ticketId}`)).status;
const commentBox = (page: Page) => drawer(page).getByRole('textbox', { name: 'New comment' });
/** A comment in the conversation (not its line in the history). */
const shownComment = (page: Page, text: string) => drawer(page).locator('[id^="comment-"]').filter({ hasText: text });

const axeClean = async (page: Page, selector: string) => {
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).include(selector).analyze();
  expect(violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
};

describe('a ticket as a page to read', () => {
  it('shows the title, facts and description as text first; Edit turns it into the form, Save and Cancel go back', async () => {
    const casey = await colleague();
    const ticket = await makeTicket({ description: `Printer jam\n${mentionToken(casey.name, casey.id)} knows the model` });
    const page = await chrome.open(DESKTOP);
    await page.goto(`/tickets/?id=${ticket.id}`);
    const view = drawer(page).getByTestId('ticket-view');
    await view.getByRole('heading', { name: ticket.title }).waitFor();
    // Text, not a form: the mention reads as the name and the line break is kept.
    const description = view.getByTestId('ticket-description');
    expect(await description.innerText()).toBe(`Printer jam\n@${casey.name} knows the model`);
    expect(await drawer(page).getByRole('textbox', { name: 'Title' }).count()).toBe(0);
    expect(await view.getByRole('definition').first().textContent()).toBe('Open');

    await view.getByRole('button', { name: `Edit ticket #${ticket.id}` }).click();
    const title = drawer(page).getByRole('textbox', { name: 'Title' });
    await expect.poll(() => title.inputValue(), POLL).toBe(ticket.title);
    await drawer(page).getByRole('button', { name: 'Cancel editing' }).click();
    await view.waitFor();

    // Keyboard: Edit is reachable and opens the form; Save returns to the read view with the change.
    await view.getByRole('button', { name: `Edit ticket #${ticket.id}` }).focus();
    await page.keyboard.press('Enter');
    await title.fill(`${ticket.title} renamed`);
    await drawer(page).getByRole('button', { name: 'Save ticket' }).click();
    await view.getByRole('heading', { name: `${ticket.title} renamed` }).waitFor();
    expect(await title.count()).toBe(0);
  });

  it('on a 375 px phone the comment box is on the first screen', async () => {
    const ticket = await makeTicket({ description: Array.from({ length: 30 }, (_, n) => `Line ${n + 1} of a long description`).join('\n') });
    await adminApi(`tickets/${ticket.id}/comments`, { method: 'POST', body: { body: 'The first comment' } });
    const page = await chrome.open(SMALL_PHONE);
    await page.goto(`/tickets/?id=${ticket.id}`);
    const first = shownComment(page, 'The first comment');
    await first.waitFor();
    const box = await settled(first);
    expect(box).not.toBeNull();
    expect((box?.y ?? Infinity) + (box?.height ?? 0)).toBeLessThan(SMALL_PHONE.height);
  });
});

describe('one reply: comment, status and time', () => {
  it('"Reply and resolve" adds the comment, resolves the ticket and logs 90 minutes from "1h 30m"', async () => {
    const ticket = await makeTicket();
    const page = await chrome.open(DESKTOP);
    await page.goto(`/tickets/?id=${ticket.id}`);
    await commentBox(page).fill('Replaced the fuser');
    await drawer(page).getByRole('textbox', { name: 'Log time (optional)' }).fill('1h 30m');
    await drawer(page).getByRole('button', { name: 'Reply and resolve' }).click();
    await expect.poll(() => commentBox(page).inputValue(), POLL).toBe('');
    await shownComment(page, 'Replaced the fuser').waitFor();
    expect((await commentsOf(ticket.id)).map((comment) => comment.body)).toEqual(['Replaced the fuser']);
    expect(await statusOf(ticket.id)).toBe('resolved');
    expect((await timeOf(ticket.id)).map((entry) => entry.minutes)).toEqual([90]);
    // The page shows it all: the status in the facts, the time in the time section.
    await expect.poll(() => drawer(page).getByTestId('ticket-view').getByRole('definition').first().textContent(), POLL).toBe('Resolved');
    await expect.poll(() => drawer(page).getByTestId('time-total').textContent(), POLL).toContain('1 h 30 min logged');
  });

  it('Ctrl+Enter in the comment box sends it', async () => {
    const ticket = await makeTicket();
    const page = await chrome.open(DESKTOP);
    await page.goto(`/tickets/?id=${ticket.id}`);
    await commentBox(page).fill('Sent from the keyboard');
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => commentBox(page).inputValue(), POLL).toBe('');
    expect((await commentsOf(ticket.id)).map((comment) => comment.body)).toEqual(['Sent from the keyboard']);
    expect(await statusOf(ticket.id)).toBe('open');
  });

  it('a status refused with 412 after the comment went out is said, and the status choice is kept', async () => {
    const ticket = await makeTicket();
    const page = await chrome.open(DESKTOP);
    await page.goto(`/tickets/?id=${ticket.id}`);
    // The ticket's save is refused as stale; reading it still works.
    await page.route(`**/api/v1/tickets/${ticket.id}`, (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({ status: 412, contentType: 'application/json', body: JSON.stringify({ message: 'The ticket was changed by someone else' }) })
        : route.fallback(),
    );
    await commentBox(page).fill('Done, I think');
    await drawer(page).getByRole('button', { name: 'Reply and resolve' }).click();
    const problems = drawer(page).getByTestId('reply-problems');
    await problems.waitFor();
    expect(await problems.textContent()).toContain('Status not set to Resolved: someone else changed the ticket meanwhile');
    // The comment went out once, its box is empty; the status waits to be sent again.
    expect((await commentsOf(ticket.id)).map((comment) => comment.body)).toEqual(['Done, I think']);
    expect(await commentBox(page).inputValue()).toBe('');
    expect(await drawer(page).getByLabel('Then mark as').inputValue()).toBe('Resolved');
    expect(await statusOf(ticket.id)).toBe('open');
    // Sent again with the box empty: only the status goes.
    await page.unrouteAll();
    await drawer(page).getByRole('button', { name: 'Add comment and set Resolved' }).click();
    await expect.poll(() => statusOf(ticket.id), POLL).toBe('resolved');
    expect(await commentsOf(ticket.id)).toHaveLength(1);
  });
});

describe('a notification of a comment', () => {
  it('opens the ticket at that comment, in view and focused', async () => {
    const casey = await colleague();
    const ticket = await makeTicket({ assigneeId: casey.id });
    for (let n = 1; n <= 8; n += 1) await adminApi(`tickets/${ticket.id}/comments`, { method: 'POST', body: { body: `Earlier note ${n}\nwith\nseveral\nlines` } });
    await casey.call('notifications/read', { method: 'POST', body: {} });
    const page = await chrome.open(DESKTOP, { as: casey });
    const hello = liveHello(page);
    await page.goto('/dashboard');
    await hello;
    const mention = await adminApi<TicketComment>(`tickets/${ticket.id}/comments`, { method: 'POST', body: { body: `Could you look, ${mentionToken(casey.name, casey.id)}?` } });
    const bell = page.getByTestId('bell');
    await expect.poll(() => bell.getAttribute('aria-label'), POLL).toBe('Notifications, 1 unread notification');
    await bell.click();
    await page.getByTestId('notification').filter({ hasText: 'mentioned you in' }).click();
    const target = drawer(page).locator(`#comment-${mention.id}`);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), POLL).toBe(`comment-${mention.id}`);
    expect(await target.textContent()).toContain(`@${casey.name}`);
    const box = await settled(target);
    expect(box).not.toBeNull();
    expect(box?.y ?? -1).toBeGreaterThanOrEqual(0);
    expect((box?.y ?? Infinity) + (box?.height ?? 0)).toBeLessThanOrEqual(DESKTOP.height);
    expect(page.url()).toContain(`/tickets/?id=${ticket.id}#comment-${mention.id}`);
  });
});

describe('looks', () => {
  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['phone', SMALL_PHONE],
  ] as const) {
    for (const theme of ['light', 'dark'] as const) {
      it(`the read view and the reply box, ${theme} at ${name} width, pass axe`, async () => {
        const casey = await colleague();
        const ticket = await makeTicket({ description: `The printer on floor 2 jams on every second page.\nAsked ${mentionToken(casey.name, casey.id)} for the model.`, assigneeId: casey.id, priority: 'high' });
        await adminApi(`tickets/${ticket.id}/comments`, { method: 'POST', body: { body: 'Ordered a new fuser.' } });
        const page = await chrome.open(viewport, { context: { reducedMotion: 'reduce' } });
        await page.addInitScript(({ key, scheme }) => localStorage.setItem(key, scheme), { key: THEME_STORAGE_KEY, scheme: theme });
        await page.goto(`/tickets/?id=${ticket.id}`);
        await shownComment(page, 'Ordered a new fuser.').waitFor();
        await settled(drawer(page));
        await axeClean(page, '[data-testid="ticket-view"]');
        await axeClean(page, 'form:has(textarea)');
        await screenshot(page, `ticket-reading-${theme}-${name}`);
      });
    }
  }
});
