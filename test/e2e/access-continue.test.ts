import AxeBuilder from '@axe-core/playwright';
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { THEME_STORAGE_KEY } from '../../src/client/lib/constants';
import { APP_AUDIENCE } from '../../src/shared/constants';
import { ADMIN_EMAIL, LOGIN_API, POLL, VIEWPORTS, admin, browserForFile, fillLogin, location, openAccountMenu, sessionFor, snap, storedToken, toastWith } from './fixtures';

// "Continue as <email>" on the sign-in page (docs/api.md#cloudflare-access). The app under test
// runs without Access, so Access's two calls are answered here; the Worker's side of them is
// proven in workerd (test/worker/access.test.ts). GET auth/access without a stub is the real one.

const chrome = browserForFile();
const WHO = '**/api/v1/auth/access';

interface AccessStub {
  /** The bodies POST auth/access was sent, in order. */
  posts: unknown[];
  /** The tokens its answers carried. */
  tokens: string[];
}

/**
 * Access vouches for `email`: GET names them, and POST answers with a new real session of the
 * admin (so the pages after it load, and a sign-out ends only that one), or with `refusal`.
 */
const asAccess = async (page: Page, email: string, refusal?: { status: number; message: string }): Promise<AccessStub> => {
  const stub: AccessStub = { posts: [], tokens: [] };
  await page.route(WHO, async (route: Route) => {
    const request = route.request();
    if (request.method() === 'GET') return route.fulfill({ json: { email } });
    stub.posts.push(request.postDataJSON());
    if (refusal) return route.fulfill({ status: refusal.status, json: { message: refusal.message } });
    const session = await sessionFor(admin());
    stub.tokens.push(session.token);
    return route.fulfill({ json: session });
  });
  return stub;
};

const continueButton = (page: Page) => page.getByRole('button', { name: /^Continue as / });

describe('Continue as', () => {
  it('is not offered when Access names nobody: the real API answers 204 and the form is as before', async () => {
    const page = await chrome.open();
    const asked = page.waitForResponse((res) => res.url().endsWith('/api/v1/auth/access') && res.request().method() === 'GET');
    await page.goto('/login/');
    expect((await asked).status()).toBe(204);
    await page.getByRole('button', { name: 'Login' }).waitFor();
    expect(await continueButton(page).count()).toBe(0);
    expect(await page.getByText('or sign in with your password').count()).toBe(0);
  });

  it('continues by itself to the wanted address, sending the app audience', async () => {
    const page = await chrome.open();
    const stub = await asAccess(page, ADMIN_EMAIL);
    await page.goto(`/login?redirect=${encodeURIComponent('/users/')}`);
    await page.waitForURL('**/users/');
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    expect(stub.posts).toEqual([{ audience: APP_AUDIENCE }]);
    expect(await storedToken(page)).toBe(stub.tokens[0]);
  });

  it('after a sign-out in this tab, offers it without taking it; a click continues', async () => {
    const page = await chrome.open();
    const stub = await asAccess(page, ADMIN_EMAIL);
    await page.goto('/login/');
    await page.waitForURL('**/dashboard');
    expect(stub.posts).toHaveLength(1);

    await openAccountMenu(page);
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL('**/login**');
    await continueButton(page).waitFor();
    expect(await continueButton(page).textContent()).toBe(`Continue as ${ADMIN_EMAIL}`);
    // A reload of the same tab still remembers the sign-out.
    await page.reload();
    await continueButton(page).waitFor();
    await page.getByRole('button', { name: 'Login' }).waitFor();
    expect(stub.posts).toHaveLength(1);
    expect(location(page).pathname).toMatch(/^\/login\/?$/);
    await snap(page, 'access-continue-after-sign-out');

    await continueButton(page).click();
    await page.waitForURL('**/dashboard');
    expect(stub.posts).toHaveLength(2);

    // Signed in again, a later visit to the sign-in page in this tab continues by itself again.
    await page.evaluate(() => localStorage.clear());
    await page.goto('/login/');
    await page.waitForURL('**/dashboard');
    expect(stub.posts).toHaveLength(3);
  });

  it('remembers a sign-out in its own tab only: a new tab continues by itself', async () => {
    const page = await chrome.open();
    const stub = await asAccess(page, ADMIN_EMAIL);
    await page.addInitScript(() => sessionStorage.setItem('staff-app:signed-out-here', '1'));
    await page.goto('/login/');
    await continueButton(page).waitFor();
    expect(stub.posts).toEqual([]);
    const fresh = await page.context().newPage();
    const freshStub = await asAccess(fresh, ADMIN_EMAIL);
    await fresh.goto('/login/');
    await fresh.waitForURL('**/dashboard');
    expect(freshStub.posts).toHaveLength(1);
  });

  it('does not continue by itself in a tab another tab signed out, so that sign-out stays', async () => {
    const page = await chrome.open();
    const stub = await asAccess(page, ADMIN_EMAIL);
    await page.goto('/login/');
    await page.waitForURL('**/dashboard');
    const other = await page.context().newPage();
    await other.goto('/dashboard');
    await openAccountMenu(other);
    await other.getByRole('menuitem', { name: 'Logout' }).click();
    await other.waitForURL('**/login**');

    // The first tab follows to the sign-in page, says why, and offers Access without taking it.
    await page.waitForURL('**/login**');
    await page.getByText('You signed out in another tab: sign in again.').waitFor();
    await continueButton(page).waitFor();
    expect(stub.posts).toHaveLength(1);
    expect(await storedToken(other)).toBeNull();
  });

  it('says why a password is refused when the company requires Access', async () => {
    const page = await chrome.open();
    await page.route(LOGIN_API, (route) => route.fulfill({ status: 403, json: { message: 'Sign in through your company account' } }));
    await page.goto('/login/');
    await fillLogin(page, admin());
    await page.getByRole('button', { name: 'Login' }).click();
    await toastWith(page, 'Password sign-in is off').filter({ hasText: 'Sign in through your company account' }).waitFor();
    expect(location(page).pathname).toBe('/login/');
  });
});

describe.each(VIEWPORTS)('Continue as for someone without an account ($name)', ({ name, viewport }) => {
  it.each(['light', 'dark'] as const)('says why beside the button, keeps the form, and passes axe (%s theme)', async (theme) => {
    const page = await chrome.open(viewport);
    await page.addInitScript(({ key, scheme }) => localStorage.setItem(key, scheme), { key: THEME_STORAGE_KEY, scheme: theme });
    const email = 'jordan.long-surname-for-a-phone@company.example.com';
    const stub = await asAccess(page, email, { status: 403, message: `No staff account for ${email}` });
    await page.goto('/login/');
    const alert = page.getByRole('alert').filter({ hasText: `No staff account for ${email}` });
    await alert.waitFor();
    expect(stub.posts).toHaveLength(1);
    expect(location(page).pathname).toBe('/login/');
    // The form is still there and the button still works (it asks again).
    await page.getByLabel('Email').waitFor();
    await expect.poll(() => continueButton(page).isEnabled(), POLL).toBe(true);
    await continueButton(page).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => stub.posts.length, POLL).toBe(2);
    await alert.waitFor();

    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const { violations } = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .options({ resultTypes: ['violations'] })
      .analyze();
    expect(violations.flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')}`))).toEqual([]);
    await snap(page, `access-continue-refused-${name}-${theme}`);
  });
});
