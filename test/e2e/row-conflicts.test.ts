import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { THEME_STORAGE_KEY } from '../../src/client/lib/constants';
import type { Ticket, TicketComment, TimeEntry } from '../../src/shared/types';
import { DESKTOP, PHONE, POLL, adminApi, type Credentials, apiAs, apiResponse, browserPerFile, drawer, liveHello, makeAccount, screenshot, sessionFor, settled, toast, uniqueTag, type Viewport } from './fixtures';

// Two people correct the same comment or time entry (docs/decisions.md#forms-that-never-lose-work-and-edit-conflicts):
// the one still typing keeps their text when the other saves, is told at once who saved and what
// changed, and merges or overwrites; and a correction's dialog never takes them off the ticket.
const chrome = browserPerFile();
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

// A day of its own, far from the demo data and other tests' time, so no day runs past 24 hours.
const DAY = '2025-03-12';

/** Another admin, who may correct everyone's comments and time. */
const colleague = async () => {
  const account = await makeAccount('admin', 'Avery');
  const { token } = await sessionFor(account);
  return { ...account, call: apiAs(token), name: `${account.firstName} ${account.surname}` };
};

/** A tab in `theme`, on the ticket, once its live socket has said hello. */
const openTicket = async (ticket: Ticket, { viewport = DESKTOP, theme = 'light', as }: { viewport?: Viewport; theme?: 'light' | 'dark'; as?: Credentials } = {}) => {
  const page = await chrome.open(viewport, { as, context: { reducedMotion: 'reduce' } });
  await page.context().addInitScript(({ key, value }) => localStorage.setItem(key, value), { key: THEME_STORAGE_KEY, value: theme });
  const hello = liveHello(page);
  await page.goto(`/tickets/?id=${ticket.id}`);
  await hello;
  return page;
};

const editDialog = (page: Page, what: 'comment' | 'time entry') => page.getByRole('dialog', { name: new RegExp(`^Edit ${what} `) });

const openEdit = async (page: Page, what: 'comment' | 'time entry') => {
  await drawer(page).getByRole('button', { name: new RegExp(`^Edit ${what} `) }).click();
  const dialog = editDialog(page, what);
  await dialog.waitFor();
  return dialog;
};

/** Clicks `button` and answers the status, If-Match and body of the PATCH it sends to `pattern`. */
const patchBy = async (page: Page, pattern: RegExp, button: Locator) => {
  const patched = apiResponse(page, pattern, 'PATCH');
  await button.click();
  const response = await patched;
  return { status: response.status(), ifMatch: response.request().headers()['if-match'], sent: response.request().postDataJSON() as Record<string, unknown> };
};

const axeClean = async (page: Page) => {
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).include('[data-testid="conflict-notice"]').analyze();
  expect(violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
};

const noticeText = async (notice: Locator) => ((await notice.textContent()) ?? '').replace(/\s+/g, ' ');

describe('a comment corrected by two people at once', () => {
  it.each([
    ['light', 'desktop', DESKTOP],
    ['dark', 'phone', PHONE],
  ] as const)('keeps the typing, says who saved what, and overwrites or takes theirs (%s, %s)', async (theme, name, viewport) => {
    const avery = await colleague();
    const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Comment clash ${uniqueTag()}` } });
    const comment = await adminApi<TicketComment>(`tickets/${ticket.id}/comments`, { method: 'POST', body: { body: 'Original words' } });
    const commentPath = new RegExp(`^tickets/${ticket.id}/comments/${comment.id}$`);
    const mine = await openTicket(ticket, { viewport, theme });
    const theirs = await openTicket(ticket, { as: avery });

    // A starts rewriting; meanwhile B saves a fix of the same comment from their own dialog.
    const dialog = await openEdit(mine, 'comment');
    const box = dialog.getByRole('textbox', { name: 'Comment' });
    await box.fill('A rewrote this carefully');
    const bs = await openEdit(theirs, 'comment');
    await bs.getByRole('textbox', { name: 'Comment' }).fill('B fixed a typo');
    expect(await patchBy(theirs, commentPath, bs.getByRole('button', { name: 'Save comment' }))).toMatchObject({ status: 200, ifMatch: '"1"' });

    // A is told at once, before pressing Save: who saved, what changed; the typing stays.
    const notice = dialog.getByTestId('conflict-notice');
    await notice.waitFor();
    await expect.poll(() => noticeText(notice), POLL).toContain(`${avery.name} saved a newer version`);
    const said = await noticeText(notice);
    expect(said).toContain('You have not saved yet, and what you typed is still below.');
    expect(said).not.toContain('were not saved');
    expect(said).toContain('What they changed:');
    expect(said).toContain('Comment: Original words');
    expect(said).toContain('B fixed a typo');
    expect(await box.inputValue()).toBe('A rewrote this carefully');
    const choice = notice.getByRole('radiogroup', { name: 'Comment' });
    expect(await choice.getByRole('radio', { name: 'Mine: A rewrote this carefully' }).isChecked()).toBe(true);
    await settled(notice);
    await notice.scrollIntoViewIfNeeded();
    await screenshot(mine, `row-conflict-comment-${theme}-${name}`);
    await axeClean(mine);

    // "Overwrite with mine" goes over B's version, with its If-Match.
    expect(await patchBy(mine, commentPath, notice.getByRole('button', { name: 'Overwrite with mine' }))).toEqual({ status: 200, ifMatch: '"2"', sent: { body: 'A rewrote this carefully' } });
    await toast(mine, 'success', 'Comment edited').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect((await adminApi<{ items: TicketComment[] }>(`tickets/${ticket.id}/comments`)).items[0]).toMatchObject({ body: 'A rewrote this carefully', version: 3 });

    // Again; this time A keeps their words for none of it: taking theirs writes nothing, and A edits on from B's version.
    const again = await openEdit(mine, 'comment');
    await again.getByRole('textbox', { name: 'Comment' }).fill('A third try');
    await avery.call(`tickets/${ticket.id}/comments/${comment.id}`, { method: 'PATCH', body: { body: 'B again' } });
    const second = again.getByTestId('conflict-notice');
    await second.waitFor();
    await second.getByRole('radio', { name: 'Theirs: B again' }).check();
    await second.getByRole('button', { name: 'Overwrite with mine' }).click();
    await second.waitFor({ state: 'hidden' });
    expect(await again.getByRole('textbox', { name: 'Comment' }).inputValue()).toBe('B again');
    await again.getByRole('textbox', { name: 'Comment' }).fill('B again, and A agrees');
    expect(await patchBy(mine, commentPath, again.getByRole('button', { name: 'Save comment' }))).toEqual({ status: 200, ifMatch: '"4"', sent: { body: 'B again, and A agrees' } });
  });
});

describe('a save refused with 412', () => {
  it('says the save was held back, not that nothing was saved before Save was pressed', async () => {
    const avery = await colleague();
    const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Refused ${uniqueTag()}` } });
    const comment = await adminApi<TicketComment>(`tickets/${ticket.id}/comments`, { method: 'POST', body: { body: 'First words' } });
    // No live channel, as with an upstream that offers none: the other save shows only when this one is refused.
    const page = await chrome.open(DESKTOP);
    await page.route('**/api/v1/live/ticket', (route) => route.fulfill({ status: 404, json: { message: 'Not Found' } }));
    await page.goto(`/tickets/?id=${ticket.id}`);
    const dialog = await openEdit(page, 'comment');
    await dialog.getByRole('textbox', { name: 'Comment' }).fill('Mine, typed slowly');
    await avery.call(`tickets/${ticket.id}/comments/${comment.id}`, { method: 'PATCH', body: { body: 'Theirs, saved first' } });
    const path = new RegExp(`^tickets/${ticket.id}/comments/${comment.id}$`);
    expect(await patchBy(page, path, dialog.getByRole('button', { name: 'Save comment' }))).toMatchObject({ status: 412, ifMatch: '"1"' });
    const notice = dialog.getByTestId('conflict-notice');
    await expect.poll(() => noticeText(notice), POLL).toContain(`${avery.name} saved a newer version`);
    const said = await noticeText(notice);
    expect(said).toContain('Your save was held back so it would not overwrite theirs; your changes are still below.');
    expect(said).toContain('Comment: First words');
    expect(await dialog.getByRole('textbox', { name: 'Comment' }).inputValue()).toBe('Mine, typed slowly');
  });
});

describe('a time entry corrected by two people at once', () => {
  it.each([
    ['dark', 'desktop', DESKTOP],
    ['light', 'phone', PHONE],
  ] as const)("merges: B's change to a field A left alone stays, A's pick wins the field both changed (%s, %s)", async (theme, name, viewport) => {
    const avery = await colleague();
    const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Time clash ${uniqueTag()}` } });
    const entry = await adminApi<TimeEntry>(`tickets/${ticket.id}/time-entries`, { method: 'POST', body: { workDate: DAY, minutes: 60, note: 'Original note', billable: true } });
    const entryPath = new RegExp(`^tickets/${ticket.id}/time-entries/${entry.id}$`);
    const mine = await openTicket(ticket, { viewport, theme });
    const theirs = await openTicket(ticket, { as: avery });

    const dialog = await openEdit(mine, 'time entry');
    await dialog.getByRole('textbox', { name: 'Note' }).fill('A: printer driver');
    // B, in their own dialog, changes the note too and makes the entry non-billable.
    const bs = await openEdit(theirs, 'time entry');
    await bs.getByRole('textbox', { name: 'Note' }).fill('B: paper tray');
    await bs.getByRole('switch', { name: 'Billable' }).uncheck({ force: true });
    expect(await patchBy(theirs, entryPath, bs.getByRole('button', { name: 'Save time' }))).toEqual({ status: 200, ifMatch: '"1"', sent: { note: 'B: paper tray', billable: false } });

    const notice = dialog.getByTestId('conflict-notice');
    await notice.waitFor();
    await expect.poll(() => noticeText(notice), POLL).toContain(`${avery.name} saved a newer version`);
    const said = await noticeText(notice);
    expect(said).toContain('You have not saved yet');
    expect(said).toContain('Note: Original note');
    expect(said).toContain('Billable: Yes');
    expect(await dialog.getByRole('textbox', { name: 'Note' }).inputValue()).toBe('A: printer driver');
    // Only the note clashes; billable is theirs without asking.
    expect(await notice.getByRole('radiogroup').count()).toBe(1);
    await settled(notice);
    await notice.scrollIntoViewIfNeeded();
    await screenshot(mine, `row-conflict-time-${theme}-${name}`);
    await axeClean(mine);

    expect(await patchBy(mine, entryPath, notice.getByRole('button', { name: 'Overwrite with mine' }))).toEqual({ status: 200, ifMatch: '"2"', sent: { note: 'A: printer driver' } });
    await dialog.waitFor({ state: 'hidden' });
    expect((await adminApi<{ items: TimeEntry[] }>(`tickets/${ticket.id}/time-entries`)).items[0]).toMatchObject({ minutes: 60, note: 'A: printer driver', billable: false, version: 3 });
  });
});

describe('presence while a correction dialog is open', () => {
  it('opening and closing an edit dialog keeps the person on the ticket for everyone else', async () => {
    const avery = await colleague();
    const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Dialog presence ${uniqueTag()}` } });
    const comment = await adminApi<TicketComment>(`tickets/${ticket.id}/comments`, { method: 'POST', body: { body: 'Something to correct' } });
    const watching = await openTicket(ticket);
    const averys = await openTicket(ticket, { as: avery });
    const presence = drawer(watching).getByTestId('presence');
    await expect.poll(() => presence.textContent(), POLL).toBe(`Also here:${avery.name}`);

    // A dirty dialog says editing, on the ticket; discarding it leaves Avery on the ticket, not editing.
    const dialog = await openEdit(averys, 'comment');
    await dialog.getByRole('textbox', { name: 'Comment' }).fill('Half a thought');
    await expect.poll(() => presence.textContent(), POLL).toBe(`Also here:${avery.name} (editing)`);
    await averys.keyboard.press('Escape');
    await averys.getByTestId('discard-prompt').getByRole('button', { name: 'Discard changes' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => presence.textContent(), POLL).toBe(`Also here:${avery.name}`);

    // A clean dialog takes a colleague's save of its row as it comes; opened and closed, it leaves
    // Avery on the ticket, still there once a third person arrives after it.
    const clean = await openEdit(averys, 'comment');
    await adminApi(`tickets/${ticket.id}/comments/${comment.id}`, { method: 'PATCH', body: { body: 'Corrected by the admin' } });
    await expect.poll(() => clean.getByRole('textbox', { name: 'Comment' }).inputValue(), POLL).toBe('Corrected by the admin');
    expect(await clean.getByTestId('conflict-notice').count()).toBe(0);
    await averys.keyboard.press('Escape');
    await clean.waitFor({ state: 'hidden' });
    const casey = await makeAccount('staff', 'Casey');
    await openTicket(ticket, { as: casey });
    await expect.poll(() => presence.textContent(), POLL).toContain(`${casey.firstName} ${casey.surname}`);
    expect(await presence.textContent()).toContain(avery.name);
  });
});
