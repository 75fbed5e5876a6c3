import { describe, expect, it } from 'vitest';
import {
  DESKTOP,
  LOGIN_API,
  PROFILE_API,
  VIEWPORTS,
  admin,
  answer,
  api,
  baseUrl,
  browserForFile,
  fieldError,
  fillLogin,
  holdRequests,
  location,
  openAccountMenu,
  signIn,
  signInAsAdmin,
  signInToDashboard,
  snap,
  storedAuth,
  storedToken,
  toastWith,
} from './fixtures';

const chrome = browserForFile();

describe('route guard and redirect after sign-in', () => {
  it('sends a signed-out visitor to /login with the wanted address, and back there after sign-in', async () => {
    const page = await chrome.open();
    await page.goto('/users/?id=5');
    await page.waitForURL('**/login?**');
    expect(location(page).pathname).toBe('/login');
    expect(location(page).search).toBe(`?redirect=${encodeURIComponent('/users/?id=5')}`);

    await fillLogin(page, admin());
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL('**/users/?id=5');
    expect(location(page).pathname).toBe('/users/');
    expect(location(page).params.get('id')).toBe('5');
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
  });

  it('lands on /dashboard when no redirect was given, and stores token and user', async () => {
    const page = await chrome.open();
    await signInToDashboard(page);
    expect(location(page).pathname).toBe('/dashboard');
    const stored = await storedAuth(page);
    expect(stored).toEqual({
      token: expect.stringMatching(/\S{20,}/),
      user: { id: expect.any(Number), firstName: expect.any(String), surname: expect.any(String), email: admin().email, role: 'admin', timeZone: 'UTC' },
    });
    expect((stored as { user: { id: number } }).user.id).toBeGreaterThan(0);
  });

  it.each(['//evil.example', '/\\evil.example', 'https://evil.example/'])('does not follow the redirect %s', async (target) => {
    const page = await chrome.open();
    await signInAsAdmin(page, `/login?redirect=${encodeURIComponent(target)}`);
    await page.waitForURL('**/dashboard');
    expect(location(page).origin).toBe(new URL(baseUrl()).origin);
    expect(location(page).pathname).toBe('/dashboard');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  });
});

describe('login form', () => {
  it.each(VIEWPORTS)('shows both required messages when submitted empty ($name)', async ({ name, viewport }) => {
    const page = await chrome.open(viewport);
    await page.goto('/login/');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect.poll(() => fieldError(page.getByLabel('Email'))).toBe('Email is required');
    await expect.poll(() => fieldError(page.getByLabel('Password', { exact: true }))).toBe('Password is required');
    expect(location(page).pathname).toBe('/login/');
    await snap(page, `login-errors-${name}`);
  });

  it('carries the app audience in a hidden field', async () => {
    const page = await chrome.open();
    await page.goto('/login/');
    const audience = page.locator('form input[name="audience"]');
    expect(await audience.getAttribute('type')).toBe('hidden');
    expect(await audience.inputValue()).toBe('staff-app');
  });

  it('shows a spinner on a disabled Login button while the request is pending', async () => {
    const page = await chrome.open();
    const held = await holdRequests(page, LOGIN_API);
    await page.goto('/login/');
    await fillLogin(page, admin());
    const button = page.getByRole('button', { name: 'Login' });
    expect(await button.getAttribute('data-loading')).toBeNull();
    await button.click();
    await held.requested;

    expect(await button.isDisabled()).toBe(true);
    expect(await button.getAttribute('data-loading')).not.toBeNull();
    await snap(page, 'login-pending-desktop');

    held.release();
    await page.waitForURL('**/dashboard');
  });

  it('reports a wrong password as invalid credentials', async () => {
    const page = await chrome.open();
    await signIn(page, { email: admin().email, password: 'not-the-password' });
    const toast = toastWith(page, 'Invalid Credentials');
    await toast.waitFor();
    expect(await toast.textContent()).toContain('Please check your email and password and try again.');
    expect(location(page).pathname).toBe('/login/');
    expect(await storedToken(page)).toBeNull();
    await snap(page, 'login-invalid-desktop');
  });

  it('reports any other failure as Login Failed', async () => {
    const page = await chrome.open();
    await answer(page, LOGIN_API, 500, { message: 'boom' });
    await signIn(page, admin());
    const toast = toastWith(page, 'Login Failed');
    await toast.waitFor();
    expect(await toast.textContent()).toContain('An unexpected error occurred. Please try again.');
    expect(await toastWith(page, 'Invalid Credentials').count()).toBe(0);
    expect(location(page).pathname).toBe('/login/');
  });
});

describe('signed-in state', () => {
  it('survives a reload on the same page', async () => {
    const page = await chrome.open();
    await signInToDashboard(page);
    await page.goto('/tickets/?id=7');
    await page.getByRole('heading', { name: 'Tickets', level: 1 }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Tickets', level: 1 }).waitFor();
    expect(location(page).pathname).toBe('/tickets/');
    expect(location(page).params.get('id')).toBe('7');
    expect(await page.getByTestId('user-name').textContent()).not.toBe('');
  });

  it('logs out from the account menu, clearing the token', async () => {
    const page = await chrome.open();
    await signInToDashboard(page);
    await openAccountMenu(page);
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    // The guard may add ?redirect= for the page left behind; the address itself must be /login.
    await page.waitForURL((url) => url.pathname === '/login');
    expect(await storedToken(page)).toBeNull();
    await page.getByRole('button', { name: 'Login' }).waitFor();

    await page.goto('/dashboard');
    await page.waitForURL('**/login?**');
    expect(location(page).params.get('redirect')).toBe('/dashboard');
  });

  it('signs out every open tab, and the server refuses the token afterwards', async () => {
    const first = await chrome.open();
    await signInToDashboard(first);
    const second = await first.context().newPage();
    await second.goto('/tickets/');
    await second.getByRole('heading', { name: 'Tickets', level: 1 }).waitFor();
    const token = await storedToken(second);
    expect(token).not.toBeNull();
    expect((await api('users', { token: token ?? '' })).status).toBe(200);

    const loggedOut = first.waitForResponse((res) => res.url().endsWith('/api/v1/auth/logout'));
    // The second tab came to the front when it opened; a background tab's menu never finishes its fade-in.
    await first.bringToFront();
    await openAccountMenu(first);
    await first.getByRole('menuitem', { name: 'Logout' }).click();
    expect((await loggedOut).status()).toBe(204);
    await first.waitForURL((url) => url.pathname === '/login');
    // The other tab follows without a reload or a call of its own.
    await second.waitForURL((url) => url.pathname === '/login');
    await second.getByRole('button', { name: 'Login' }).waitFor();
    expect(await storedToken(second)).toBeNull();
    expect((await api('users', { token: token ?? '' })).status).toBe(401);
  });

  it('goes to /login when an authenticated call answers 401', async () => {
    const page = await chrome.open(DESKTOP, { as: admin() });
    await page.goto('/dashboard?settings=true&tab=profile');
    const update = page.getByRole('button', { name: 'Update Profile' });
    await update.waitFor();
    // From here on the profile call carries a token the server does not accept.
    await page.route(PROFILE_API, (route) =>
      route.continue({ headers: { ...route.request().headers(), authorization: 'Bearer garbage.token.value' } }),
    );

    const profileCall = page.waitForResponse(PROFILE_API);
    await update.click();
    expect((await profileCall).status()).toBe(401);
    await page.waitForURL((url) => url.pathname === '/login');
    expect(location(page).params.get('redirect')).toBe('/dashboard?settings=true&tab=profile');
    expect(await storedToken(page)).toBeNull();
  });
});
