import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Ticket } from '../../src/shared/types';
import { DESKTOP, PHONE, location } from './fixtures';
import { POLL, adminApi, browserPerFile, drawer, heading, modal, screenshot, settled, tableLoaded, uniqueTag } from './fixtures';

// Unsaved work is never dropped without asking (docs/decisions.md#forms-that-never-lose-work-and-edit-conflicts): Escape, the close button, Back and a
// link on a dirty form all ask first, and long text outlives a reload as a draft.
const chrome = browserPerFile();

const makeTicket = () =>
  adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Unsaved ${uniqueTag()}`, description: 'As it was', priority: 'normal' } });

const prompt = (page: Page) => page.getByRole('dialog', { name: 'Discard unsaved changes?' });

/** Opens the ticket list, then the ticket by clicking its row, so Back is a move inside the app. */
const openTicketFromList = async (page: Page, ticket: Ticket) => {
  await page.goto(`/tickets/?q=${encodeURIComponent(`#${ticket.id}`)}`);
  await heading(page, 'Tickets');
  await tableLoaded(page, 'Tickets');
  await page.getByRole('table', { name: 'Tickets', exact: true }).getByText(ticket.title).click();
  await drawer(page).getByRole('button', { name: /^Edit ticket #/ }).click();
  await drawer(page).getByLabel('Description').waitFor();
};

describe('a dirty form asks before it is discarded', () => {
  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)('Escape and the close button on a dirty ticket drawer ask first (%s)', async (name, viewport) => {
    const ticket = await makeTicket();
    const page = await chrome.open(viewport);
    await page.goto(`/tickets/?id=${ticket.id}`);
    await drawer(page).getByRole('button', { name: /^Edit ticket #/ }).click();
    const description = drawer(page).getByLabel('Description');
    await expect.poll(() => description.inputValue(), POLL).toBe('As it was');

    await description.fill('Edited, not saved');
    await page.keyboard.press('Escape');
    const ask = prompt(page);
    await ask.waitFor();
    await settled(modal(page).filter({ hasText: 'Discard unsaved changes?' }));
    await screenshot(page, `unsaved-prompt-${name}`);
    const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).include('[data-testid="discard-prompt"]').analyze();
    expect(axe.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
    // The safe choice has focus, so Enter or Escape again keeps the work.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent), POLL).toBe('Keep editing');
    await ask.getByRole('button', { name: 'Keep editing' }).click();
    await ask.waitFor({ state: 'hidden' });
    expect(location(page).params.get('id')).toBe(String(ticket.id));
    expect(await description.inputValue()).toBe('Edited, not saved');

    await drawer(page).getByRole('button', { name: 'Close panel' }).click();
    await ask.waitFor();
    await ask.getByRole('button', { name: 'Discard changes' }).click();
    await drawer(page).waitFor({ state: 'hidden' });
    expect(location(page).params.get('id')).toBeNull();

    // Discarded means gone: the ticket opens as it is stored, with no draft coming back.
    await page.goto(`/tickets/?id=${ticket.id}`);
    await drawer(page).getByRole('button', { name: /^Edit ticket #/ }).click();
    await expect.poll(() => drawer(page).getByLabel('Description').inputValue(), POLL).toBe('As it was');
    expect((await adminApi<Ticket>(`tickets/${ticket.id}`)).description).toBe('As it was');
  });

  it('Back, a click outside and a link on a dirty ticket drawer ask first; a clean drawer closes without asking', async () => {
    const ticket = await makeTicket();
    const page = await chrome.open();
    await openTicketFromList(page, ticket);
    const description = drawer(page).getByLabel('Description');
    await expect.poll(() => description.inputValue(), POLL).toBe('As it was');
    await description.fill('Typed, then Back');

    await page.evaluate(() => history.back());
    await prompt(page).waitFor();
    await prompt(page).getByRole('button', { name: 'Keep editing' }).click();
    await prompt(page).waitFor({ state: 'hidden' });
    expect(location(page).params.get('id')).toBe(String(ticket.id));
    expect(await description.inputValue()).toBe('Typed, then Back');

    // A click on the page beside the drawer.
    await page.mouse.click(100, 450);
    await prompt(page).waitFor();
    await prompt(page).getByRole('button', { name: 'Keep editing' }).click();
    await prompt(page).waitFor({ state: 'hidden' });
    expect(location(page).params.get('id')).toBe(String(ticket.id));

    // A link (the side navigation's, activated as a script or assistive technology would, since the drawer's overlay covers it).
    await page.locator('nav a[href="/dashboard"]').first().dispatchEvent('click');
    await prompt(page).waitFor();
    await prompt(page).getByRole('button', { name: 'Keep editing' }).click();
    await prompt(page).waitFor({ state: 'hidden' });
    expect(location(page).pathname).toMatch(/^\/tickets\/?$/);
    expect(await description.inputValue()).toBe('Typed, then Back');

    // Put back as it was, the form is clean again and Back just closes the drawer.
    await description.fill('As it was');
    await page.evaluate(() => history.back());
    await drawer(page).waitFor({ state: 'hidden' });
    expect(await prompt(page).count()).toBe(0);
  });

  it('Back inside the New ticket dialog asks and keeps the draft; reload keeps it too', async () => {
    const page = await chrome.open();
    await page.goto('/dashboard/');
    await heading(page, 'Dashboard');
    await page.locator('nav a[href="/tickets"]').first().click();
    await heading(page, 'Tickets');
    await page.getByRole('button', { name: 'New ticket' }).click();
    const dialog = modal(page).filter({ hasText: 'New ticket' });
    const title = `Draft ${uniqueTag()}`;
    await dialog.getByLabel('Title').fill(title);
    await dialog.getByLabel('Description').fill('A long description I do not want to lose');

    await page.evaluate(() => history.back());
    await prompt(page).waitFor();
    await prompt(page).getByRole('button', { name: 'Keep editing' }).click();
    await prompt(page).waitFor({ state: 'hidden' });
    expect(location(page).pathname).toMatch(/^\/tickets\/?$/);
    expect(await dialog.getByLabel('Description').inputValue()).toBe('A long description I do not want to lose');

    // Reload: the browser asks (beforeunload); once left anyway, the draft comes back with the dialog.
    let asked = '';
    page.once('dialog', (question) => {
      asked = question.type();
      void question.accept();
    });
    await page.reload();
    expect(asked).toBe('beforeunload');
    await heading(page, 'Tickets');
    await page.getByRole('button', { name: 'New ticket' }).click();
    await expect.poll(() => dialog.getByLabel('Description').inputValue(), POLL).toBe('A long description I do not want to lose');
    expect(await dialog.getByLabel('Title').inputValue()).toBe(title);

    // Escape asks too; discarding closes the dialog and forgets the draft.
    await dialog.getByLabel('Description').focus();
    await page.keyboard.press('Escape');
    await prompt(page).waitFor();
    await prompt(page).getByRole('button', { name: 'Discard changes' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'New ticket' }).click();
    await expect.poll(() => dialog.getByLabel('Description').inputValue(), POLL).toBe('');
  });

  it('the settings dialog asks before a changed profile is closed', async () => {
    const page = await chrome.open();
    await page.goto('/dashboard/?settings=true&tab=profile');
    const firstName = page.getByLabel('First Name');
    await expect.poll(() => firstName.inputValue(), POLL).not.toBe('');
    await firstName.fill('Someone else');
    await page.keyboard.press('Escape');
    await prompt(page).waitFor();
    await prompt(page).getByRole('button', { name: 'Keep editing' }).click();
    expect(location(page).params.get('settings')).toBe('true');
    expect(await firstName.inputValue()).toBe('Someone else');
    await page.getByRole('button', { name: 'Close settings' }).click();
    await prompt(page).getByRole('button', { name: 'Discard changes' }).click();
    await firstName.waitFor({ state: 'hidden' });
    expect(location(page).params.get('settings')).toBeNull();
  });
});
