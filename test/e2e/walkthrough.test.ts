import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  DESKTOP,
  LOGIN_API,
  VIEWPORTS,
  adminApi,
  browserPerFile,
  drawer,
  fillLogin,
  heading,
  location,
  makeAccount,
  openAccountMenu,
  pause,
  signInToDashboard,
  snap,
  toast,
  toastWith,
  uniqueTag,
} from './fixtures';

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
    // Wait for focus to settle (the heading after an in-app redirect, else the email field).
    await page.waitForFunction(() => ['H1', 'INPUT'].includes(document.activeElement?.tagName ?? ''));
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

/** The notice above the sign-in form saying why the session ended. */
const notice = (page: Page) => page.getByRole('alert').filter({ hasText: /sign in again/ });

describe('the sign-in page after a sign-out the person did not make here', () => {
  it("says so after another tab's logout, once, and not after signing in again or a reload", async () => {
    const first = await chrome.open();
    await signInToDashboard(first);
    const second = await first.context().newPage();
    await second.goto('/tickets/');
    await heading(second, 'Tickets');
    await first.bringToFront();
    await openAccountMenu(first);
    await first.getByRole('menuitem', { name: 'Logout' }).click();
    await second.waitForURL((url) => url.pathname === '/login');
    await expect.poll(() => notice(second).textContent()).toBe('You signed out in another tab: sign in again.');
    // The guard moved focus to the heading; the untouched email field must not complain.
    await second.waitForFunction(() => document.activeElement?.tagName === 'H1');
    expect(await complaints(second)).toEqual({ invalid: 0, text: false });
    expect(await notice(second).count()).toBe(1);
    expect(await second.locator('[data-toast-id]').count()).toBe(0);
    await second.bringToFront();
    await snap(second, 'sign-in-notice-other-tab');
    // The tab that signed out knows why: nothing to explain there.
    await first.getByRole('button', { name: 'Login' }).waitFor();
    expect(await notice(first).count()).toBe(0);

    await second.reload();
    await second.getByRole('button', { name: 'Login' }).waitFor();
    expect(await notice(second).count()).toBe(0);
  });

  it.each([
    { change: 'a role change', body: { role: 'billing' } },
    { change: 'a deactivation', body: { isActive: false } },
  ])('says the session ended after $change made by an admin, until the next sign-in', async ({ body }) => {
    const person = await makeAccount('staff');
    const page = await chrome.open(DESKTOP, { as: person });
    await page.goto('/dashboard');
    await heading(page, 'Dashboard');
    await adminApi('users', { method: 'PATCH', body: { id: person.id, ...body } });
    // The live channel ends the session where the person is, without waiting for their next click.
    await page.waitForURL((url) => url.pathname === '/login');
    expect(location(page).params.get('redirect')).toBe('/dashboard');
    await expect.poll(() => notice(page).textContent()).toBe('Your session ended: sign in again.');
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    expect(await complaints(page)).toEqual({ invalid: 0, text: false });
    expect(await page.locator('[data-toast-id]').count()).toBe(0);
    if (body.isActive === false) return;
    await fillLogin(page, person);
    await page.getByRole('button', { name: 'Login' }).click();
    await heading(page, 'Dashboard');
    await openAccountMenu(page);
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.getByRole('button', { name: 'Login' }).waitFor();
    expect(await notice(page).count()).toBe(0);
  });
});

describe('a signed-out visit to a signed-in page', () => {
  /** Every request the visit to `path` makes until the sign-in form shows. */
  const requestsOf = async (path: string) => {
    const page = await chrome.open();
    const urls: string[] = [];
    page.on('request', (request) => urls.push(new URL(request.url()).pathname));
    await page.goto(path);
    await page.getByRole('button', { name: 'Login' }).waitFor();
    await pause(500);
    return { page, urls };
  };

  it.each([
    { path: '/', redirect: '/dashboard' },
    { path: '/tickets/?id=1', redirect: '/tickets/?id=1' },
  ])('fetches only what /login/ fetches, and no data ($path)', async ({ path, redirect }) => {
    const direct = await requestsOf('/login/');
    const { page, urls } = await requestsOf(path);
    // The sign-in page's own calls (who Cloudflare Access vouches for, a passkey challenge) are no data.
    const apiCalls = (list: string[]) => [...new Set(list.filter((url) => url.startsWith('/api/')))].sort();
    expect(apiCalls(urls).every((url) => url.startsWith('/api/v1/auth/'))).toBe(true);
    expect(apiCalls(urls)).toEqual(apiCalls(direct.urls));
    const assets = (list: string[]) => [...new Set(list.filter((url) => url.startsWith('/assets/')))].sort();
    expect(assets(urls)).toEqual(assets(direct.urls));
    expect(urls.length).toBeLessThanOrEqual(direct.urls.length);
    expect(location(page).pathname).toBe('/login');
    expect(location(page).params.get('redirect')).toBe(redirect);
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
