import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { DESKTOP, VIEWPORTS, admin, browserForFile, openAccountMenu, snap, type Viewport } from './fixtures';

const chrome = browserForFile();

const colorScheme = (page: Page) => page.locator('html').getAttribute('data-mantine-color-scheme');
const storedTheme = (page: Page) => page.evaluate(() => localStorage.getItem('theme'));

/** A signed-in page whose system preference is dark. */
const openInDarkSystem = (viewport: Viewport = DESKTOP) => chrome.open(viewport, { as: admin(), context: { colorScheme: 'dark' } });

it('starts light even when the system prefers dark', async () => {
  const page = await openInDarkSystem();
  await page.goto('/dashboard');
  await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(true);
  expect(await colorScheme(page)).toBe('light');
  expect(await storedTheme(page)).toBeNull();
});

it.each(VIEWPORTS)('follows the system once System is chosen, and keeps it after a reload ($name)', async ({ name, viewport }) => {
  const page = await openInDarkSystem(viewport);
  await page.goto('/dashboard');
  await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  await openAccountMenu(page);
  const theme = page.getByRole('radiogroup', { name: 'Theme' });
  await theme.getByText('System', { exact: true }).click();

  await expect.poll(() => colorScheme(page)).toBe('dark');
  expect(await storedTheme(page)).toBe('auto');
  await snap(page, `theme-system-dark-${name}`);

  await page.reload();
  await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  expect(await colorScheme(page)).toBe('dark');
  expect(await storedTheme(page)).toBe('auto');
  await openAccountMenu(page);
  expect(await page.getByRole('radio', { name: 'System' }).isChecked()).toBe(true);
  await snap(page, `theme-system-dark-menu-${name}`);
});
