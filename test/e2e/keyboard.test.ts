/**
 * Keyboard and screen-reader behaviour of the shell (docs/architecture.md#accessibility): the skip link, page titles,
 * focus after navigation and after a layer closes, Escape on stacked layers, keyboard-only sign-in
 * and ticket creation, visible focus, reduced motion.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  DESKTOP,
  PHONE,
  POLL,
  SIGNED_IN_PAGES,
  admin,
  adminApi,
  browserForFile,
  pause,
  settled,
  tableLoaded,
  tableRows,
} from './fixtures';

const chrome = browserForFile();


const h1 = (page: Page, name: string) => page.getByRole('heading', { name, level: 1, exact: true });
const isFocused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);
const expectFocused = async (locator: Locator) => {
  await expect.poll(() => isFocused(locator), POLL).toBe(true);
};
const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
const announced = (page: Page) => page.getByTestId('route-announcer').textContent();

/** Presses Tab until `target` has focus; fails after `limit` presses. */
/**
 * A Tab out of a date field is handled by the browser, and Mantine's focus trap checks where it
 * landed in a timer; a key pressed before that timer runs (as no person could) has its focus moved
 * back by the check. One timer turn after the last Tab lets the check run first.
 */
const timerTurn = (page: Page) => page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));

const tabTo = async (page: Page, target: Locator, limit = 40) => {
  for (let i = 0; i < limit; i += 1) {
    await page.keyboard.press('Tab');
    await timerTurn(page);
    if (await isFocused(target)) return;
  }
  throw new Error(`${limit} presses of Tab never reached ${target.toString()}`);
};

const signedIn = () => chrome.open(DESKTOP, { as: admin() });

describe('skip link', () => {
  it('is the first Tab stop of every signed-in page and moves focus to the main content', async () => {
    const page = await signedIn();
    for (const { path, heading } of SIGNED_IN_PAGES) {
      await page.goto(path);
      await h1(page, heading).waitFor();
      await page.keyboard.press('Tab');
      const skip = page.getByRole('link', { name: 'Skip to content' });
      expect(await isFocused(skip), path).toBe(true);
      // Shown while it has focus: inside the window, not moved off-screen.
      const box = await skip.boundingBox();
      expect(box && box.y >= 0 && box.x >= 0 && box.width > 0, path).toBe(true);
      await page.keyboard.press('Enter');
      expect(await page.evaluate(() => document.activeElement?.tagName), path).toBe('MAIN');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('main'))), path).toBe(true);
    }
  });

  it('works on a phone too', async () => {
    const page = await chrome.open(PHONE, { as: admin() });
    await page.goto('/tickets/');
    await h1(page, 'Tickets').waitFor();
    await page.keyboard.press('Tab');
    await expectFocused(page.getByRole('link', { name: 'Skip to content' }));
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await focusedText(page)).toBe('New ticket');
  });
});

describe('page titles', () => {
  it('name every page "<Page> · Staff App"', async () => {
    const page = await signedIn();
    for (const { path, heading } of SIGNED_IN_PAGES) {
      await page.goto(path);
      await h1(page, heading).waitFor();
      await expect.poll(() => page.title(), POLL).toBe(`${heading} · Staff App`);
    }
    await page.goto('/no/such/page');
    await h1(page, 'Not Found').waitFor();
    await expect.poll(() => page.title(), POLL).toBe('Not Found · Staff App');
  });

  it('names the sign-in page', async () => {
    const page = await chrome.open();
    await page.goto('/login/');
    await h1(page, 'Sign in').waitFor();
    await expect.poll(() => page.title(), POLL).toBe('Sign in · Staff App');
  });
});

describe('focus after navigation', () => {
  it("moves to the new page's h1 and announces its title once, by mouse or keyboard", async () => {
    const page = await signedIn();
    await page.goto('/dashboard/');
    await h1(page, 'Dashboard').waitFor();
    expect(await announced(page)).toBe('');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tickets', exact: true }).click();
    await expectFocused(h1(page, 'Tickets'));
    expect(await page.title()).toBe('Tickets · Staff App');
    expect(await announced(page)).toBe('Tickets · Staff App');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expectFocused(h1(page, 'Users'));
    expect(await announced(page)).toBe('Users · Staff App');

    // A record opening changes only the search part: not a new page, nothing is announced.
    await tableLoaded(page, 'Users');
    await tableRows(page, 'Users').first().click();
    await page.getByRole('dialog').waitFor();
    await pause(300);
    expect(await announced(page)).toBe('Users · Staff App');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')))).toBe(true);
  });
});

describe('closing a layer', () => {
  it('returns focus to the table row that opened a record drawer', async () => {
    const page = await signedIn();
    await page.goto('/tickets/');
    await tableLoaded(page, 'Tickets');
    const row = tableRows(page, 'Tickets').nth(2);
    await row.focus();
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog');
    await drawer.waitFor();
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    await expectFocused(row);
  });

  it('returns focus to the button that opened a modal, by Escape and by its close button', async () => {
    const page = await signedIn();
    await page.goto('/tickets/');
    await h1(page, 'Tickets').waitFor();
    const opener = page.getByRole('button', { name: 'New ticket' });
    const dialog = page.getByRole('dialog', { name: 'New ticket' });

    await opener.focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expectFocused(opener);

    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Close dialog' }).focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await expectFocused(opener);
  });

  it('returns focus to the account menu after the settings dialog closes', async () => {
    const page = await signedIn();
    await page.goto('/dashboard/');
    await h1(page, 'Dashboard').waitFor();
    const account = page.getByRole('button', { name: 'Account menu' });
    await account.focus();
    await page.keyboard.press('Enter');
    const settings = page.getByRole('menuitem', { name: 'Settings' });
    await settings.waitFor();
    await settings.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: /Settings/ }).waitFor();
    // Opened, as a person sees it, before Escape: Mantine hands focus back once its transition ends.
    await settled(dialog);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expectFocused(account);
  });

  it('closes only the topmost layer on Escape: a confirm dialog over a drawer, a dropdown in a drawer', async () => {
    const page = await signedIn();
    const companies = await adminApi<{ items: { id: number }[] }>('companies?page=1');
    await page.goto(`/lookups/companies/?id=${companies.items[0]?.id ?? 1}`);
    const drawer = page.getByRole('dialog').first();
    await drawer.waitFor();
    const remove = drawer.getByRole('button', { name: 'Delete' });
    await remove.click();
    const confirm = page.getByRole('dialog', { name: 'Delete company?' });
    await confirm.waitFor();
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(await drawer.isVisible()).toBe(true);
    await expectFocused(remove);
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });

    const tickets = await adminApi<{ items: { id: number }[] }>('tickets?page=1');
    await page.goto(`/tickets/?id=${tickets.items[0]?.id ?? 1}`);
    await drawer.waitFor();
    await drawer.getByRole('button', { name: /^Edit ticket #/ }).click();
    const status = drawer.getByLabel('Status', { exact: true });
    await status.click();
    const listbox = page.getByRole('listbox');
    await listbox.waitFor();
    await page.keyboard.press('Escape');
    await listbox.waitFor({ state: 'hidden' });
    expect(await drawer.isVisible()).toBe(true);
    await expectFocused(status);
  });
});

describe('keyboard alone', () => {
  it('signs in: errors tied to the fields, focus on the first invalid one, then the dashboard', async () => {
    const page = await chrome.open();
    await page.goto('/login/');
    const email = page.getByLabel('Email');
    const password = page.getByLabel('Password', { exact: true });
    await expectFocused(email);
    await page.keyboard.press('Tab');
    await expectFocused(password);
    await page.keyboard.press('Enter');
    // The empty form fails: focus goes back to the first field in error.
    await expectFocused(email);
    for (const [field, message] of [
      [email, 'Email is required'],
      [password, 'Password is required'],
    ] as const) {
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      const describedBy = (await field.getAttribute('aria-describedby')) ?? '';
      const texts = await Promise.all(describedBy.split(/\s+/).filter(Boolean).map((id) => page.locator(`[id="${id}"]`).textContent()));
      expect(texts.join(' ')).toContain(message);
    }

    await page.keyboard.type(admin().email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(admin().password);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/dashboard');
    await expectFocused(h1(page, 'Dashboard'));
    expect(await page.title()).toBe('Dashboard · Staff App');
  });

  it("creates a ticket: open the form, fill it, submit, and the new ticket's drawer opens", async () => {
    const page = await signedIn();
    await page.goto('/tickets/');
    await h1(page, 'Tickets').waitFor();
    await tabTo(page, page.getByRole('button', { name: 'New ticket' }));
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'New ticket' });
    await dialog.waitFor();
    await settled(dialog);

    // Submitting it empty puts focus on the title, the one required field.
    await tabTo(page, dialog.getByRole('button', { name: 'Create ticket' }));
    await page.keyboard.press('Enter');
    const title = dialog.getByLabel('Title');
    await expectFocused(title);

    const name = `Keyboard ticket ${Date.now()}`;
    await page.keyboard.type(name);
    await page.keyboard.press('Tab');
    await page.keyboard.type('Made without a mouse.');
    await tabTo(page, dialog.getByRole('button', { name: 'Create ticket' }));
    await page.keyboard.press('Enter');

    await dialog.waitFor({ state: 'detached' });
    const drawerTitle = page.getByRole('dialog').getByRole('heading').first();
    await expect.poll(() => drawerTitle.textContent(), POLL).toMatch(new RegExp(`^#\\d+ ${name}$`));
    expect(new URL(page.url()).searchParams.get('id')).toMatch(/^\d+$/);
  });

  it('shows a focus ring on every Tab stop', async () => {
    const page = await signedIn();
    await page.goto('/tickets/');
    await tableLoaded(page, 'Tickets');
    const seen = new Set<string>();
    for (let i = 0; i < 30; i += 1) {
      await page.keyboard.press('Tab');
      const stop = await page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        if (!element || element === document.body) return null;
        // An input's ring is drawn on Mantine's box around it (the password field's inner input).
        const style = getComputedStyle(element.closest('.mantine-Input-input') ?? element);
        const ring = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
        const label = element.getAttribute('aria-label') ?? element.textContent?.trim() ?? '';
        return { name: `${element.tagName}.${element.className} ${label.slice(0, 40)}`, ring };
      });
      if (!stop) continue;
      seen.add(stop.name);
      expect(stop.ring, `no focus ring on ${stop.name}`).toBe(true);
    }
    expect(seen.size).toBeGreaterThan(15);
  });
});

describe('reduced motion', () => {
  it('turns off transitions and chart animation when the system asks for it', async () => {
    const page = await chrome.open(DESKTOP, { as: admin(), context: { reducedMotion: 'reduce' } });
    await page.goto('/tickets/');
    await h1(page, 'Tickets').waitFor();
    await page.getByRole('button', { name: 'New ticket' }).click();
    const content = page.getByRole('dialog', { name: 'New ticket' });
    await content.waitFor();
    // Fully shown at once: no fade.
    expect(await content.evaluate((element) => getComputedStyle(element).opacity)).toBe('1');
    const durations = await page.evaluate(() =>
      [...document.querySelectorAll('*')].flatMap((element) => getComputedStyle(element).transitionDuration.split(', ')).filter((d) => parseFloat(d) > 0),
    );
    expect(durations).toEqual([]);

    await page.goto('/reports/timesheet/');
    const bar = page.locator('[data-testid="timesheet-chart"] .recharts-bar-rectangle path').first();
    await bar.waitFor();
    const first = await bar.getAttribute('d');
    await pause(300);
    expect(await bar.getAttribute('d')).toBe(first);
  });
});
