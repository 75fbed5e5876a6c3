import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, POLL, admin, browserForFile, createUser, snap, toast } from './fixtures';

// Settings → Notifications in Chromium (docs/api.md#mail): each kind's delivery is saved and kept
// across a reload. What the provider checks is proven in workerd.

const chrome = browserForFile();

const tab = (page: Page) => page.getByRole('dialog', { name: 'Settings Notifications' });

const openTab = async (page: Page) => {
  await page.goto('/dashboard?settings=true&tab=notifications');
  await tab(page).getByRole('button', { name: 'Save notification settings' }).waitFor();
};

const choice = (page: Page, group: string, delivery: string) =>
  tab(page).getByRole('radiogroup', { name: group }).getByRole('radio', { name: delivery });

describe('Settings → Notifications', () => {
  it('saves each kind of notification and keeps it after a reload', async () => {
    const user = await createUser();
    const page = await chrome.open(DESKTOP, { as: user });
    await openTab(page);
    // The defaults: assigned and mentioned at once, the rest in the digest.
    await expect.poll(() => choice(page, 'A ticket is assigned to me', 'Instant').isChecked(), POLL).toBe(true);
    await expect.poll(() => choice(page, 'Someone comments on a ticket I follow', 'Daily digest').isChecked(), POLL).toBe(true);
    // Mail is sent now: the tab explains the three choices instead of saying it is not.
    await expect.poll(() => tab(page).getByText('Daily digest gathers them into one mail at 07:00 in your time zone').isVisible(), POLL).toBe(true);
    expect(await tab(page).getByText('Mail is not sent yet').count()).toBe(0);

    await choice(page, 'A ticket is assigned to me', 'Off').check();
    await choice(page, 'A ticket I follow changes status', 'Instant').check();
    await tab(page).getByRole('button', { name: 'Save notification settings' }).click();
    await toast(page, 'success', 'Notification settings saved').waitFor();
    await snap(page, 'mail-settings-notifications');

    await page.reload();
    await openTab(page);
    await expect.poll(() => choice(page, 'A ticket is assigned to me', 'Off').isChecked(), POLL).toBe(true);
    await expect.poll(() => choice(page, 'A ticket I follow changes status', 'Instant').isChecked(), POLL).toBe(true);
    await expect.poll(() => choice(page, 'I am mentioned', 'Instant').isChecked(), POLL).toBe(true);
  });

  it('is labelled and axe-clean at phone width', async () => {
    const user = await createUser();
    const page = await chrome.open(PHONE, { as: user });
    await openTab(page);
    const { violations } = await new AxeBuilder({ page }).include('[role="dialog"]').analyze();
    expect(violations.map((v) => v.id)).toEqual([]);
    await snap(page, 'mail-settings-notifications-phone');
  });
});

describe('Settings → Mail log', () => {
  it('is shown to an admin, with the log or its empty state', async () => {
    const page = await chrome.open(DESKTOP, { as: admin() });
    await page.goto('/dashboard?settings=true&tab=mail');
    const dialog = page.getByRole('dialog', { name: 'Settings Mail log' });
    await expect.poll(() => dialog.getByRole('button', { name: 'Mail log' }).isVisible(), POLL).toBe(true);
    await expect.poll(async () => (await dialog.getByText('No mail yet').isVisible()) || (await dialog.getByRole('table').isVisible()), POLL).toBe(true);
    const { violations } = await new AxeBuilder({ page }).include('[role="dialog"]').analyze();
    expect(violations.map((v) => v.id)).toEqual([]);
    await snap(page, 'mail-settings-mail-log');
  });

  it('is neither listed nor readable for a staff user', async () => {
    const user = await createUser();
    const page = await chrome.open(DESKTOP, { as: user });
    await page.goto('/dashboard?settings=true&tab=mail');
    const dialog = page.getByRole('dialog', { name: 'Settings Mail log' });
    await expect.poll(() => dialog.getByText('Only admins can read the mail log.').isVisible(), POLL).toBe(true);
    expect(await dialog.getByRole('button', { name: 'Mail log' }).count()).toBe(0);
  });
});
