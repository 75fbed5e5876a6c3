import AxeBuilder from '@axe-core/playwright';
import type { CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { THEME_STORAGE_KEY } from '../../src/client/lib/constants';
import { DESKTOP, PHONE, POLL, type Viewport, adminApi, answer, browserForFile, createUser, location, openAccountMenu, snap, storedToken, toast, toastText, type TestUser } from './fixtures';

// Passkeys in Chromium (docs/api.md#passkeys): a virtual authenticator (Chrome DevTools
// Protocol) stands in for the device, on the app served as http://localhost:<port>, so the RP ID
// is `localhost`. The provider's checks themselves are proven in workerd (test/worker/passkeys.test.ts).

const chrome = browserForFile();

/**
 * The virtual authenticator answers a conditional (autofill) request by itself, with nobody
 * picking the passkey, so the sign-in page would sign in on arrival. Tests of the button take
 * autofill away, as a browser without it would.
 */
const withoutAutofill = (page: Page) =>
  page.addInitScript(() => {
    PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
  });

/** Records the mediation of every navigator.credentials.get() the page makes. */
const recordGets = (page: Page) =>
  page.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { passkeyGets: seen });
    const get = navigator.credentials.get.bind(navigator.credentials);
    navigator.credentials.get = (options?: CredentialRequestOptions) => {
      seen.push(options?.mediation ?? 'optional');
      return get(options);
    };
  });

const getsOf = (page: Page) => page.evaluate(() => (window as unknown as { passkeyGets: string[] }).passkeyGets);

/** A platform authenticator with resident keys and user verification, answering by itself. */
const addAuthenticator = async (page: Page) => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { cdp, authenticatorId };
};

const credentialsOf = async ({ cdp, authenticatorId }: { cdp: CDPSession; authenticatorId: string }) =>
  (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;

const securityTab = (page: Page) => page.getByRole('dialog', { name: 'Settings Security' });
const passkeyList = (page: Page) => securityTab(page).getByRole('list', { name: 'Your passkeys' });

const openSecurity = async (page: Page) => {
  await page.goto('/dashboard?settings=true&tab=security');
  await securityTab(page).getByRole('heading', { name: 'Passkeys' }).waitFor();
};

/** Adds a passkey named `name` in Settings → Security and waits for it in the list. */
const addPasskey = async (page: Page, name: string) => {
  await openSecurity(page);
  await securityTab(page).getByLabel('Name for a new passkey').fill(name);
  await securityTab(page).getByRole('button', { name: 'Add a passkey' }).click();
  await passkeyList(page).getByRole('listitem', { name }).waitFor();
};

const signOut = async (page: Page) => {
  await page.getByRole('button', { name: 'Close settings' }).click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  await openAccountMenu(page);
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await page.waitForURL('**/login**');
};

const signedInAs = (user: TestUser) => ({ as: user });

describe('passkeys', () => {
  it('are added in Settings → Security, renamed, and sign their owner in from the sign-in page', async () => {
    const user = await createUser();
    const page = await chrome.open(DESKTOP, signedInAs(user));
    await withoutAutofill(page);
    await recordGets(page);
    const authenticator = await addAuthenticator(page);

    await addPasskey(page, 'Test laptop');
    await toast(page, 'success', 'Passkey added').waitFor();
    const [credential, ...more] = await credentialsOf(authenticator);
    expect(more).toEqual([]);
    expect(credential).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });
    await expect.poll(() => passkeyList(page).getByRole('listitem', { name: 'Test laptop' }).textContent(), POLL).toMatch(/Not used yet/);

    await securityTab(page).getByRole('button', { name: 'Rename Test laptop' }).click();
    await securityTab(page).getByLabel('New name for Test laptop').fill('Desk');
    await page.keyboard.press('Enter');
    await passkeyList(page).getByRole('listitem', { name: 'Desk' }).waitFor();
    // Focus is back on the renamed passkey's Rename button, for the keyboard.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Rename Desk');

    await signOut(page);
    expect(await storedToken(page)).toBeNull();
    await expect.poll(() => page.getByLabel('Email').getAttribute('autocomplete')).toBe('username webauthn');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
    await snap(page, 'passkeys-sign-in');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL('**/dashboard');
    expect(await storedToken(page)).not.toBeNull();
    // The browser's dialog, not autofill.
    expect(await getsOf(page)).toEqual(['optional']);
    await openSecurity(page);
    await expect.poll(() => passkeyList(page).getByRole('listitem', { name: 'Desk' }).textContent(), POLL).toMatch(/Last used/);
  });

  it('is removed after a confirmation, and then signs nobody in', async () => {
    const user = await createUser();
    const page = await chrome.open(DESKTOP, signedInAs(user));
    await withoutAutofill(page);
    await addAuthenticator(page);
    await addPasskey(page, 'Old phone');

    await securityTab(page).getByRole('button', { name: 'Remove Old phone' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove passkey' });
    await confirm.getByText('It will no longer sign you in').waitFor();
    await confirm.getByRole('button', { name: 'Remove passkey' }).click();
    await securityTab(page).getByText('You have no passkeys yet.').waitFor();

    await signOut(page);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await toast(page, 'error', 'Passkey not accepted').waitFor();
    expect(location(page).pathname).toMatch(/^\/login\/?$/);
    expect(await storedToken(page)).toBeNull();
  });

  it("of a deactivated person's account is refused", async () => {
    const user = await createUser();
    const page = await chrome.open(DESKTOP, signedInAs(user));
    await withoutAutofill(page);
    await addAuthenticator(page);
    await addPasskey(page, 'Laptop');
    await signOut(page);

    await adminApi('users', { method: 'PATCH', body: { id: user.id, isActive: false } });
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    const refused = toast(page, 'error', 'Passkey not accepted');
    await refused.waitFor();
    expect(await refused.textContent()).toContain('This passkey cannot sign in');
    expect(location(page).pathname).toMatch(/^\/login\/?$/);
    expect(await storedToken(page)).toBeNull();
  });
});

describe('the Security tab', () => {
  const cases: { name: string; theme: 'light' | 'dark'; viewport: Viewport }[] = [
    { name: 'light', theme: 'light', viewport: DESKTOP },
    { name: 'dark', theme: 'dark', viewport: DESKTOP },
    { name: 'phone', theme: 'light', viewport: PHONE },
    { name: 'phone-dark', theme: 'dark', viewport: PHONE },
  ];

  it.each(cases)('has no axe violations with a passkey listed ($name)', async ({ name, theme, viewport }) => {
    const user = await createUser();
    const page = await chrome.open(viewport, { ...signedInAs(user), context: { reducedMotion: 'reduce' } });
    await page.addInitScript(({ key, value }) => localStorage.setItem(key, value), { key: THEME_STORAGE_KEY, value: theme });
    await addAuthenticator(page);
    await addPasskey(page, 'Work laptop');
    await snap(page, `passkeys-security-${name}`);
    const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).analyze();
    expect(violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
    // Nothing on the page scrolls sideways at phone width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  });
});

describe('autofill (conditional mediation)', () => {
  // Headless Chromium shows no autofill list to pick from; its virtual authenticator answers the
  // conditional request by itself, which is the path a pick takes from there on.
  it('asks with mediation conditional on the sign-in page, and an answer signs the person in', async () => {
    const user = await createUser();
    const page = await chrome.open(DESKTOP, signedInAs(user));
    await recordGets(page);
    await addAuthenticator(page);
    await addPasskey(page, 'Laptop');
    const signedInAgain = page.waitForResponse((res) => res.url().endsWith('/api/v1/auth/passkeys/login') && res.status() === 200);
    await signOut(page);
    await signedInAgain;
    await page.waitForURL('**/dashboard');
    expect(await storedToken(page)).not.toBeNull();
    expect(await getsOf(page)).toEqual(['conditional']);
  });
});

describe('an API without passkeys (an upstream that answers 404)', () => {
  it('leaves the sign-in page without autofill and without a message until the button is used', async () => {
    const page = await chrome.open(DESKTOP);
    await recordGets(page);
    // The autofill offer's request is answered at once; the button's waits until the page has
    // been checked for a message, so any message seen then is the offer's.
    let release = () => undefined as void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    await page.route('**/api/v1/auth/passkeys/login-options', async (route) => {
      calls += 1;
      if (calls > 1) await released;
      await route.fulfill({ status: 404, json: { message: 'Not Found' } });
    });
    const asked = page.waitForResponse((res) => res.url().endsWith('/api/v1/auth/passkeys/login-options'));
    await page.goto('/login/');
    expect((await asked).status()).toBe(404);
    const buttonAsked = page.waitForRequest((request) => request.url().endsWith('/api/v1/auth/passkeys/login-options'));
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await buttonAsked;
    expect(await page.locator('[data-testid="toast"]').count()).toBe(0);
    release();
    const said = toast(page, 'error', 'Passkey sign-in failed');
    await said.waitFor();
    expect(await toastText(said)).toBe('Passkey sign-in failed | Passkeys are not available with this server.');
    expect(await getsOf(page)).toEqual([]);
  });

  it('says so in Settings → Security, with nothing to add', async () => {
    const user = await createUser();
    const page = await chrome.open(DESKTOP, signedInAs(user));
    await answer(page, '**/api/v1/auth/passkeys', 404, { message: 'Not Found' });
    await page.goto('/dashboard?settings=true&tab=security');
    await securityTab(page).getByText('Passkeys are not available with this server.').waitFor();
    expect(await securityTab(page).getByRole('button', { name: 'Add a passkey' }).count()).toBe(0);
  });
});
