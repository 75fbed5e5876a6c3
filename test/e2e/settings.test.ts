import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { THEME_STORAGE_KEY } from '../../src/client/lib/constants';
import type { BackupList, BackupResult } from '../../src/shared/types';
import { describe, expect, it } from 'vitest';
import {
  BACKUP_API,
  type Credentials,
  DESKTOP,
  PHONE,
  PROFILE_API,
  VIEWPORTS,
  type Viewport,
  admin,
  answer,
  api,
  apiLogin,
  browserForFile,
  createUser,
  fieldError,
  holdRequests,
  location,
  makeAccount,
  openAccountMenu,
  pause,
  settledBox,
  signInToDashboard,
  snap,
  storedAuth,
  toastWith,
  watchErrors,
} from './fixtures';

const chrome = browserForFile();

/** The settings dialog, found by its accessible name: 'Settings' plus the active tab's label. */
const settingsDialog = (page: Page, tab: string) => page.getByRole('dialog', { name: `Settings ${tab}` });

/** Opens /dashboard with the given search values and waits for the dialog showing `tab`. */
const openSettings = async (page: Page, search: string, tab: string) => {
  await page.goto(`/dashboard${search}`);
  await settingsDialog(page, tab).waitFor();
  return settingsDialog(page, tab);
};

const openAs = async (credentials: Credentials, viewport: Viewport = DESKTOP) => chrome.open(viewport, { as: credentials });

const submit = (page: Page, name: string) => page.getByRole('button', { name, exact: true }).click();

describe('settings dialog', () => {
  it('opens from ?settings=true at about 60% by 80% of a desktop window', async () => {
    const page = await openAs(admin(), DESKTOP);
    const dialog = await openSettings(page, '?settings=true', 'Profile');
    const box = await settledBox(dialog);
    expect(box.width / DESKTOP.width).toBeGreaterThanOrEqual(0.55);
    expect(box.width / DESKTOP.width).toBeLessThanOrEqual(0.65);
    expect(box.height / DESKTOP.height).toBeGreaterThanOrEqual(0.75);
    expect(box.height / DESKTOP.height).toBeLessThanOrEqual(0.85);
    await snap(page, 'settings-profile-desktop');
  });

  it('fills the whole screen on a phone', async () => {
    const page = await openAs(admin(), PHONE);
    const dialog = await openSettings(page, '?settings=true', 'Profile');
    const box = await settledBox(dialog);
    expect(box.x).toBe(0);
    expect(box.y).toBe(0);
    expect(box.width).toBe(PHONE.width);
    expect(box.height).toBeGreaterThanOrEqual(840);
    await snap(page, 'settings-profile-phone');
  });

  it('lists Profile, Security, Notifications, Database and API tokens, and the Mail log for admins only', async () => {
    const adminPage = await openAs(admin());
    const adminTabs = (await openSettings(adminPage, '?settings=true', 'Profile')).getByRole('navigation', { name: 'Settings sections' }).getByRole('button');
    expect(await adminTabs.allTextContents()).toEqual(['Profile', 'Security', 'Notifications', 'Database', 'API tokens', 'Mail log']);
    const staffPage = await openAs(await makeAccount('staff', 'Tabs'));
    const staffTabs = (await openSettings(staffPage, '?settings=true', 'Profile')).getByRole('navigation', { name: 'Settings sections' }).getByRole('button');
    expect(await staffTabs.allTextContents()).toEqual(['Profile', 'Security', 'Notifications', 'Database', 'API tokens']);
  });

  it.each(VIEWPORTS)('keeps the active tab in ?tab= ($name)', async ({ name, viewport }) => {
    const page = await openAs(admin(), viewport);
    const dialog = await openSettings(page, '?settings=true', 'Profile');

    await dialog.getByRole('button', { name: 'Security', exact: true }).click();
    await settingsDialog(page, 'Security').getByRole('heading', { name: 'Change Password' }).waitFor();
    expect(location(page).params.get('tab')).toBe('security');
    expect(location(page).params.get('settings')).toBe('true');
    await snap(page, `settings-security-${name}`);

    await settingsDialog(page, 'Security').getByRole('button', { name: 'Database', exact: true }).click();
    await settingsDialog(page, 'Database').getByRole('button', { name: 'Backup Database' }).waitFor();
    expect(location(page).params.get('tab')).toBe('database');
    await snap(page, `settings-database-${name}`);
  });

  it('accepts ?tab=notifications', async () => {
    const page = await openAs(admin());
    const dialog = await openSettings(page, '?settings=true&tab=notifications', 'Notifications');
    expect(await dialog.getByTestId('settings-tab-label').textContent()).toBe('Notifications');
    expect(location(page).params.get('tab')).toBe('notifications');
  });

  it('falls back to Profile for an unknown ?tab=', async () => {
    const page = await openAs(admin());
    const dialog = await openSettings(page, '?settings=true&tab=nope', 'Profile');
    await dialog.getByRole('button', { name: 'Update Profile' }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Profile', exact: true }).getAttribute('aria-current')).toBe('page');
  });

  it('takes settings and tab out of the address when closed', async () => {
    const page = await openAs(admin());
    const dialog = await openSettings(page, '?settings=true&tab=security', 'Security');
    await dialog.getByRole('button', { name: 'Close settings' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(location(page).pathname).toBe('/dashboard');
    expect(location(page).params.has('settings')).toBe(false);
    expect(location(page).params.has('tab')).toBe(false);
  });

  it('opens from the account menu', async () => {
    const page = await openAs(admin());
    await page.goto('/tickets/');
    await page.getByRole('heading', { name: 'Tickets', level: 1 }).waitFor();
    await openAccountMenu(page);
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    await settingsDialog(page, 'Profile').waitFor();
    expect(location(page).pathname).toBe('/tickets/');
    expect(location(page).params.get('settings')).toBe('true');
  });
});

describe('profile tab', () => {
  const openProfile = async (user: Credentials) => {
    const page = await openAs(user);
    const dialog = await openSettings(page, '?settings=true&tab=profile', 'Profile');
    return { page, dialog };
  };

  it('shows the profile fields filled with the stored user', async () => {
    const user = await createUser();
    const { dialog } = await openProfile(user);
    expect(await dialog.getByLabel('First Name', { exact: true }).inputValue()).toBe(user.firstName);
    expect(await dialog.getByLabel('Surname', { exact: true }).inputValue()).toBe(user.surname);
    expect(await dialog.getByLabel('Email Address', { exact: true }).inputValue()).toBe(user.email);
    expect(await dialog.getByRole('button', { name: 'Update Profile' }).isEnabled()).toBe(true);
  });

  it.each([
    { field: 'First Name', value: '' },
    { field: 'Surname', value: '' },
    { field: 'Email Address', value: '' },
    { field: 'Email Address', value: 'not-an-email' },
  ])('refuses $field = "$value" with Required, sending nothing', async ({ field, value }) => {
    const user = await createUser();
    const { page, dialog } = await openProfile(user);
    let calls = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/users/profile')) calls += 1;
    });

    const input = dialog.getByLabel(field, { exact: true });
    await input.fill(value);
    await submit(page, 'Update Profile');
    await expect.poll(() => fieldError(input)).toBe('Required');
    await pause(300);
    expect(calls).toBe(0);
  });

  it('saves a valid change: toast, header name and stored user', async () => {
    const user = await createUser();
    const { page, dialog } = await openProfile(user);
    const changed = { firstName: 'Renamed', surname: 'Person', email: `renamed-${user.email}` };
    await dialog.getByLabel('First Name', { exact: true }).fill(changed.firstName);
    await dialog.getByLabel('Surname', { exact: true }).fill(changed.surname);
    await dialog.getByLabel('Email Address', { exact: true }).fill(changed.email);
    await submit(page, 'Update Profile');

    await toastWith(page, 'Profile Updated').waitFor();
    await expect.poll(() => page.getByTestId('user-name').textContent()).toBe('Renamed Person');
    expect(await storedAuth(page)).toMatchObject({ user: { id: user.id, ...changed } });
    const { token } = (await apiLogin({ email: changed.email, password: user.password })).body;
    const saved = await api(`users/${user.id}`, { token });
    expect(saved.body).toMatchObject({ id: user.id, ...changed });
    await snap(page, 'settings-profile-saved-desktop');
  });

  it('keeps the time zone chosen on the profile, UTC until then, for the 07:00 mail digest', async () => {
    const user = await createUser();
    const { page, dialog } = await openProfile(user);
    const zone = dialog.getByRole('combobox', { name: 'Time zone' });
    expect(await zone.inputValue()).toBe('UTC');
    await zone.fill('Berl');
    await page.getByRole('option', { name: 'Europe/Berlin', exact: true }).click();
    await submit(page, 'Update Profile');
    await toastWith(page, 'Profile Updated').waitFor();
    expect(await storedAuth(page)).toMatchObject({ user: { id: user.id, timeZone: 'Europe/Berlin' } });
    const { token } = (await apiLogin(user)).body;
    expect((await api(`users/${user.id}`, { token })).body).toMatchObject({ timeZone: 'Europe/Berlin' });
    await snap(page, 'settings-profile-time-zone-desktop');

    // Signed in again, the form starts from the zone the sign-in answered.
    const again = await openProfile(user);
    expect(await again.dialog.getByRole('combobox', { name: 'Time zone' }).inputValue()).toBe('Europe/Berlin');
  });

  it('shows the conflict detail when the email belongs to someone else', async () => {
    const user = await createUser();
    const { page, dialog } = await openProfile(user);
    await dialog.getByLabel('Email Address', { exact: true }).fill(admin().email);
    const response = page.waitForResponse(PROFILE_API);
    await submit(page, 'Update Profile');
    expect((await response).status()).toBe(409);

    const toast = toastWith(page, 'Email address is already in use');
    await toast.waitFor();
    expect(await toast.getAttribute('role')).toBe('alert');
    expect(await toastWith(page, 'Profile Updated').count()).toBe(0);
    expect(await storedAuth(page)).toMatchObject({ user: { email: user.email } });
  });

  it('disables Update Profile while the request is pending', async () => {
    const user = await createUser();
    const { page, dialog } = await openProfile(user);
    const held = await holdRequests(page, PROFILE_API);
    await dialog.getByLabel('Surname', { exact: true }).fill('Pending');
    const button = dialog.getByRole('button', { name: 'Update Profile' });
    await button.click();
    await held.requested;
    expect(await button.isDisabled()).toBe(true);
    expect(await button.getAttribute('data-loading')).not.toBeNull();

    held.release();
    await toastWith(page, 'Profile Updated').waitFor();
    await expect.poll(() => button.isEnabled()).toBe(true);
  });
});

describe('security tab', () => {
  const openSecurity = async (user: Credentials, viewport: Viewport = DESKTOP) => {
    const page = await openAs(user, viewport);
    const dialog = await openSettings(page, '?settings=true&tab=security', 'Security');
    return { page, dialog };
  };

  it('requires both passwords', async () => {
    const user = await createUser();
    const { page, dialog } = await openSecurity(user);
    await dialog.getByRole('heading', { name: 'Change Password', level: 3 }).waitFor();
    await submit(page, 'Update Password');
    await expect.poll(() => fieldError(dialog.getByLabel('New Password', { exact: true }))).toBe('Required');
    await expect.poll(() => fieldError(dialog.getByLabel('Confirm Password', { exact: true }))).toBe('Required');
  });

  it('says the passwords do not match, on Confirm Password', async () => {
    const user = await createUser();
    const { page, dialog } = await openSecurity(user);
    await dialog.getByLabel('New Password', { exact: true }).fill('first-choice');
    await dialog.getByLabel('Confirm Password', { exact: true }).fill('second-choice');
    await submit(page, 'Update Password');
    await expect.poll(() => fieldError(dialog.getByLabel('Confirm Password', { exact: true }))).toBe('Passwords do not match');
    expect(await fieldError(dialog.getByLabel('New Password', { exact: true }))).toBeNull();
    await snap(page, 'settings-security-mismatch-desktop');
  });

  it.each(VIEWPORTS)('shows the provider’s reason for refusing a weak password ($name)', async ({ name, viewport }) => {
    const user = await createUser();
    const { page, dialog } = await openSecurity(user, viewport);
    await dialog.getByLabel('New Password', { exact: true }).fill('1234567');
    await dialog.getByLabel('Confirm Password', { exact: true }).fill('1234567');
    await submit(page, 'Update Password');
    const toast = toastWith(page, 'Password not changed');
    await toast.waitFor();
    expect(await toast.textContent()).toContain('Password must be at least 8 characters');
    expect(await dialog.getByLabel('New Password', { exact: true }).inputValue()).toBe('1234567');
    await snap(page, `settings-security-weak-password-${name}`);
    expect((await apiLogin(user)).status).toBe(200);
  });

  it('changes the password; the new one signs in and the old one no longer does', async () => {
    const user = await createUser();
    const { page, dialog } = await openSecurity(user);
    const newPassword = `${user.password}-changed`;
    await dialog.getByLabel('New Password', { exact: true }).fill(newPassword);
    await dialog.getByLabel('Confirm Password', { exact: true }).fill(newPassword);
    await submit(page, 'Update Password');
    await toastWith(page, 'Password Changed').waitFor();
    await expect.poll(() => dialog.getByLabel('New Password', { exact: true }).inputValue()).toBe('');

    const fresh = await chrome.open();
    await signInToDashboard(fresh, { email: user.email, password: newPassword });
    expect(location(fresh).pathname).toBe('/dashboard');
    expect((await apiLogin(user)).status).toBe(401);
  });
});

describe('database tab', () => {
  const openDatabase = async () => {
    const page = await openAs(admin());
    const dialog = await openSettings(page, '?settings=true&tab=database', 'Database');
    await dialog.getByText('Create a timestamped backup to the DB Server.', { exact: true }).waitFor();
    return { page, dialog };
  };

  it('backs the database up', async () => {
    const { page, dialog } = await openDatabase();
    const response = page.waitForResponse(BACKUP_API);
    await dialog.getByRole('button', { name: 'Backup Database' }).click();
    expect((await response).ok()).toBe(true);
    await toastWith(page, 'Database backup complete').waitFor();
  });

  it.each([
    { name: 'desktop', viewport: { width: 1366, height: 768 } },
    { name: 'phone', viewport: PHONE },
  ])('lists a backup made by the button first, with its size, rows and maker ($name)', async ({ name, viewport }) => {
    const page = await openAs(admin(), viewport);
    const dialog = await openSettings(page, '?settings=true&tab=database', 'Database');
    const table = dialog.getByRole('table', { name: 'Backups' });
    await table.and(page.locator('[aria-busy="false"]')).waitFor();
    const response = page.waitForResponse(BACKUP_API);
    await dialog.getByRole('button', { name: 'Backup Database' }).click();
    const made = (await (await response).json()) as BackupResult;
    await toastWith(page, 'Database backup complete').waitFor();

    // The list is asked for again once the backup is done, and shows it first.
    const firstRow = table.getByRole('row').nth(1);
    const total = Object.values(made.rows).reduce((sum, n) => sum + n, 0);
    const size = made.bytes < 1024 ? `${made.bytes} B` : `${(made.bytes / 1024).toFixed(1)} kB`;
    await expect.poll(async () => firstRow.getByRole('cell').allTextContents()).toEqual([
      await page.evaluate((iso) => new Date(iso).toLocaleString(undefined, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' }), made.createdAt),
      size,
      await page.evaluate((n) => n.toLocaleString(), total),
      'Demo Admin',
      'Download',
    ]);
    expect(await table.getByRole('columnheader').allTextContents()).toEqual(['Time', 'Size', 'Rows', 'Made by', 'File']);
    // An admin downloads the file itself, named by its key.
    const download = page.waitForEvent('download');
    await firstRow.getByRole('button', { name: /^Download/ }).click();
    expect((await download).suggestedFilename()).toBe(made.key.replace(/^backups\//, ''));
    // Nothing here has run the schedule, so the tab says so.
    expect(await dialog.getByTestId('schedule-status').textContent()).toContain('none has run so far');
    await snap(page, `settings-database-backups-${name}`);
  });

  it('offers no download to other roles: a backup holds every password hash', async () => {
    const page = await openAs(await makeAccount('billing'));
    const dialog = await openSettings(page, '?settings=true&tab=database', 'Database');
    const table = dialog.getByRole('table', { name: 'Backups' });
    await table.and(page.locator('[aria-busy="false"]')).waitFor();
    expect(await table.getByRole('columnheader').allTextContents()).toEqual(['Time', 'Size', 'Rows', 'Made by']);
    expect(await dialog.getByRole('button', { name: /^Download/ }).count()).toBe(0);
    // Making a backup stays open to everyone (docs/architecture.md#roles-and-the-audit-log).
    expect(await dialog.getByRole('button', { name: 'Backup Database' }).isEnabled()).toBe(true);
  });

  /** Answers GET settings/backups with the real list, changed by `change`. */
  const changeList = (page: Page, change: (list: BackupList) => BackupList) =>
    page.route('**/api/v1/settings/backups', async (route) => {
      const real = (await (await route.fetch()).json()) as BackupList;
      await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(change(real)) });
    });

  const axeViolations = async (page: Page) =>
    (await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).include('[role="dialog"]').analyze()).violations.map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );

  it.each(VIEWPORTS)('shows the database size against D1’s 10 GB, with no warning while it is small ($name)', async ({ name, viewport }) => {
    const page = await openAs(admin(), viewport);
    const dialog = await openSettings(page, '?settings=true&tab=database', 'Database');
    const figure = dialog.getByTestId('database-size-figure');
    await figure.waitFor();
    // The seeded database is a few MB at most: D1's meta.size_after, in decimal units as Cloudflare states the 10 GB.
    expect(await figure.textContent()).toMatch(/^[\d.]+ (kB|MB) of 10 GB \(under 1%\)$/);
    expect(await dialog.getByRole('meter', { name: 'Database size against its limit' }).count()).toBe(1);
    expect(await dialog.getByTestId('database-size-warning').count()).toBe(0);
    expect(await dialog.getByTestId('backup-room-warning').count()).toBe(0);
    await snap(page, `settings-database-size-${name}`);
    expect(await axeViolations(page)).toEqual([]);
  });

  it.each(VIEWPORTS)('warns from 70% and says a backup would not fit, with the button off ($name)', async ({ name, viewport }) => {
    const page = await openAs(admin(), viewport);
    await changeList(page, (list) => ({ ...list, database: { bytes: 7_200_000_000, limitBytes: 10_000_000_000, backupBytes: 4_608_000_000 } }));
    const dialog = await openSettings(page, '?settings=true&tab=database', 'Database');
    const warning = dialog.getByTestId('database-size-warning');
    await warning.waitFor();
    expect(await dialog.getByTestId('database-size-figure').textContent()).toBe('7.2 GB of 10 GB (72%)');
    expect(await warning.textContent()).toContain('The database is 72% full');
    expect(await dialog.getByTestId('backup-room-warning').textContent()).toContain('about 4.6 GB more, which would take the database past 10 GB');
    expect(await dialog.getByRole('button', { name: 'Backup Database' }).isDisabled()).toBe(true);
    await snap(page, `settings-database-full-${name}`);
    expect(await axeViolations(page)).toEqual([]);
    // And in the dark theme, where the warnings' colours differ.
    await page.evaluate((key) => localStorage.setItem(key, 'dark'), THEME_STORAGE_KEY);
    await page.reload();
    await settingsDialog(page, 'Database').getByTestId('backup-room-warning').waitFor();
    await snap(page, `settings-database-full-${name}-dark`);
    expect(await axeViolations(page)).toEqual([]);
    // Two axe runs; on a busy two-core machine each can take several seconds.
  }, 60_000);

  it('says a backup would not fit from about 61%, before the 70% warning', async () => {
    const page = await openAs(admin());
    // 61% with copies of 64% on top: 100.04% of the ceiling, so no room, though no 70% warning yet.
    await changeList(page, (list) => ({ ...list, database: { bytes: 6_100_000_000, limitBytes: 10_000_000_000, backupBytes: 3_904_000_000 } }));
    const dialog = await openSettings(page, '?settings=true&tab=database', 'Database');
    await dialog.getByTestId('backup-room-warning').waitFor();
    expect(await dialog.getByTestId('database-size-warning').count()).toBe(0);
    expect(await dialog.getByRole('button', { name: 'Backup Database' }).isDisabled()).toBe(true);
  });

  it('shows a backup that goes on in steps, with the button off until it is done, then says it is complete', async () => {
    const page = await openAs(admin());
    await page.clock.install();
    const dialog = await openSettings(page, '?settings=true&tab=database', 'Database');
    const table = dialog.getByRole('table', { name: 'Backups' });
    await table.and(page.locator('[aria-busy="false"]')).waitFor();
    const key = 'backups/2026-11-26T12-00-00.000Z.ndjson.gz';
    const run = { runId: '0123456789abcdef', key, startedAt: '2026-11-26T12:00:00.000Z', rowsDone: 2_500, rowsTotal: 10_000 };
    await answer(page, BACKUP_API, 202, { runId: run.runId });
    await changeList(page, (list) => ({ ...list, running: run }));
    await dialog.getByRole('button', { name: 'Backup Database' }).click();

    await toastWith(page, 'Backup started').waitFor();
    const progress = dialog.getByTestId('backup-progress');
    await progress.waitFor();
    expect(await progress.textContent()).toContain(`${await page.evaluate(() => (2500).toLocaleString())} of ${await page.evaluate(() => (10000).toLocaleString())} rows`);
    expect(await dialog.getByRole('progressbar', { name: 'Backup progress' }).getAttribute('aria-valuenow')).toBe('25');
    await expect.poll(() => dialog.getByRole('button', { name: 'Backup Database' }).isDisabled()).toBe(true);
    await snap(page, 'settings-database-backup-running-desktop');
    expect(await axeViolations(page)).toEqual([]);

    // The minute trigger finishes it; the tab, asking again every 15 s, finds it in the list.
    await page.unroute('**/api/v1/settings/backups');
    await changeList(page, (list) => ({
      ...list,
      running: null,
      items: [{ key, createdAt: run.startedAt, bytes: 2048, rows: 10_000, madeBy: { type: 'user', id: 1, name: 'Demo Admin' } }, ...list.items],
    }));
    await page.clock.runFor(16_000);
    await toastWith(page, 'Database backup complete').waitFor();
    await progress.waitFor({ state: 'detached' });
    await expect.poll(() => dialog.getByRole('button', { name: 'Backup Database' }).isEnabled()).toBe(true);
  });

  it('shows why a backup was not started: one already running', async () => {
    const { page, dialog } = await openDatabase();
    const detail = 'A backup is already running, started 2026-11-26 12:00 UTC. It goes on by itself; the list shows it when it is done.';
    await answer(page, BACKUP_API, 409, { title: 'Conflict', status: 409, detail });
    await dialog.getByRole('button', { name: 'Backup Database' }).click();
    const toast = toastWith(page, 'Backup not started');
    await toast.waitFor();
    expect(await toast.textContent()).toContain(detail);
    expect(await toastWith(page, 'Database backup complete').count()).toBe(0);
  });

  it('only logs a failed backup to the console', async () => {
    const { page, dialog } = await openDatabase();
    const errors = watchErrors(page);
    await answer(page, BACKUP_API, 500, { message: 'disk full' });
    await dialog.getByRole('button', { name: 'Backup Database' }).click();
    await expect.poll(() => errors.consoleErrors.some((text) => text.startsWith('Database backup failed'))).toBe(true);
    await pause(500);
    expect(await page.locator('[data-toast-id]').count()).toBe(0);
    expect(await dialog.getByRole('button', { name: 'Backup Database' }).isEnabled()).toBe(true);
  });
});
