import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LOGIN_API, VIEWPORTS, browserPerFile, drawer, fillLogin, heading, pause, snap, toast, toastWith, uniqueTag } from './fixtures';

const chrome = browserPerFile({ signedIn: false });

/** Field error messages and invalid fields on the page. */
const complaints = (page: Page) =>
  page.evaluate(() => ({
    invalid: document.querySelectorAll('[aria-invalid="true"], [data-invalid]').length,
    text: /is required/i.test(document.body.innerText),
  }));

describe('the sign-in page reached by a redirect', () => {
  it.each(['/', '/tickets/?id=1', '/dashboard'])('shows no field error before anyone types (%s)', async (path) => {
    const page = await chrome.open();
    await page.goto(path);
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('button', { name: 'Login' }).waitFor();
    // Focus moves to the heading after the redirect: wait until that has happened.
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    await pause(300);
    expect(await complaints(page)).toEqual({ invalid: 0, text: false });
  });

  it('still complains after the person typed and left the field, or submitted', async () => {
    const page = await chrome.open();
    await page.goto('/login/');
    const email = page.getByLabel('Email');
    await email.fill('a');
    await email.fill('');
    await email.press('Tab');
    await page.getByText('Email is required').waitFor();
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByText('Password is required').waitFor();
  });
});

describe('toasts', () => {
  it('shows one "Invalid Credentials" toast after two failed sign-ins', async () => {
    const page = await chrome.open();
    await page.route(LOGIN_API, (route) => route.fulfill({ status: 401, contentType: 'application/json', body: '{"message":"no"}' }));
    await page.goto('/login/');
    await fillLogin(page, { email: 'nobody@example.com', password: 'not-a-password' });
    for (let i = 0; i < 2; i += 1) {
      const answered = page.waitForResponse(LOGIN_API);
      await page.getByRole('button', { name: 'Login' }).click();
      await answered;
      await toastWith(page, 'Invalid Credentials').first().waitFor();
    }
    await pause(400);
    expect(await toastWith(page, 'Invalid Credentials').count()).toBe(1);
  });

  it("takes a form's error toast down when the retry succeeds", async () => {
    const page = await chrome.open(undefined, { signedIn: true });
    const tag = uniqueTag();
    let refused = false;
    // The first create is refused as a weak password would be; the retry reaches the server.
    await page.route(/\/api\/v1\/users$/, async (route) => {
      if (route.request().method() === 'POST' && !refused) {
        refused = true;
        return route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ message: 'Password is too common', errors: {} }) });
      }
      return route.continue();
    });
    await page.goto('/users/?component=create');
    await heading(page, 'Users');
    const panel = drawer(page);
    await panel.getByLabel('First Name').fill(`Retry${tag}`);
    await panel.getByLabel('Surname').fill('Toast');
    await panel.getByLabel('Email Address').fill(`retry-${tag}@example.com`);
    await panel.getByLabel('Password', { exact: true }).fill(`pw-${tag}-secret`);
    await panel.getByRole('button', { name: 'Create user' }).click();
    await toast(page, 'error', 'User not created').waitFor();
    await panel.getByRole('button', { name: 'Create user' }).click();
    await toast(page, 'success', 'User created').waitFor();
    await toast(page, 'error', 'User not created').waitFor({ state: 'detached', timeout: 2000 });
  });
});

describe('screenshots of the sign-in page', () => {
  it.each(VIEWPORTS)('light and dark ($name)', async ({ name, viewport }) => {
    for (const scheme of ['light', 'dark'] as const) {
      const page = await chrome.open(viewport, { context: { colorScheme: scheme } });
      await page.addInitScript((value) => localStorage.setItem('theme', value), scheme);
      await page.goto('/');
      await page.getByRole('button', { name: 'Login' }).waitFor();
      await pause(300);
      await snap(page, `sign-in-${scheme}-${name}`);
    }
  });
});
