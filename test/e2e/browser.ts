import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';

// The flags this machine needs: no sandbox as root, and no background calls to a closed network.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const DESKTOP = { width: 1400, height: 900 };
export const PHONE = { width: 390, height: 844 };

export const launch = () =>
  chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: CHROMIUM_ARGS });

export const baseUrl = () => inject('baseUrl');

export const newPage = async (browser: Browser, viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page }> => {
  const context = await browser.newContext({ viewport, baseURL: baseUrl() });
  const page = await context.newPage();
  return { context, page };
};

export const ADMIN_EMAIL = 'admin@example.com';
export const adminPassword = () => inject('adminPassword');

/** Signs in through the login form as the seeded demo admin. */
export const signInAsAdmin = async (page: Page, path = '/login/') => {
  await page.goto(path);
  await page.getByLabel('Email').fill(ADMIN_EMAIL);
  await page.getByLabel('Password', { exact: true }).fill(adminPassword());
  await page.getByRole('button', { name: 'Login' }).click();
};
