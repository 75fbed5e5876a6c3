import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launch, newPage, signInAsAdmin } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

it('signs the demo admin in through the login form and lands on the dashboard', async () => {
  const { context, page } = await newPage(browser);
  await signInAsAdmin(page);
  await page.waitForURL('**/dashboard');
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/dashboard');
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('staff-app-auth') ?? 'null'));
  expect(stored).toMatchObject({ token: expect.any(String), user: { email: 'admin@example.com', id: expect.any(Number) } });
  await page.screenshot({ path: 'test-results/dashboard.png' });
  await context.close();
});
