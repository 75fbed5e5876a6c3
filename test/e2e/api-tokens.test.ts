import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { THEME_STORAGE_KEY } from '../../src/client/lib/constants';
import type { ApiToken, CreatedApiToken } from '../../src/shared/types';
import { DESKTOP, PHONE, POLL, type Viewport, admin, api, browserForFile, createUser, fieldError, sessionFor, snap, toast, type TestUser } from './fixtures';

// Settings → API tokens in Chromium (docs/api.md#api-tokens): a token made here is shown once and
// works against /api/v1 from outside the browser. What the provider checks is proven in workerd
// (test/worker/api-tokens.test.ts).

const chrome = browserForFile();

const tab = (page: Page) => page.getByRole('dialog', { name: 'Settings API tokens' });

const openTab = async (page: Page) => {
  await page.goto('/dashboard?settings=true&tab=api-tokens');
  await tab(page).getByRole('heading', { name: 'Create token' }).waitFor();
};

/** Makes a token in the form and answers the value the page shows once. */
const createInPage = async (page: Page, name: string, access: 'Read only' | 'Read and write' = 'Read only') => {
  const dialog = tab(page);
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  if (access !== 'Read only') {
    await dialog.getByRole('combobox', { name: 'Access' }).click();
    await page.getByRole('option', { name: access }).click();
  }
  await dialog.getByRole('button', { name: 'Create token' }).click();
  const shown = dialog.getByRole('textbox', { name: 'New token' });
  await shown.waitFor();
  return shown.inputValue();
};

const signedInAs = (user: TestUser) => ({ as: user });

describe('Settings → API tokens', () => {
  it('makes a token that is shown once, works from outside the browser, and stops working once removed', async () => {
    const user = await createUser();
    const page = await chrome.open(DESKTOP, { ...signedInAs(user), context: { permissions: ['clipboard-read', 'clipboard-write'] } });
    await openTab(page);
    await expect.poll(() => tab(page).getByText('You have no API tokens.').isVisible(), POLL).toBe(true);

    // Bad values are refused in place, by the same schema as the provider's.
    const nameBox = tab(page).getByRole('textbox', { name: 'Name' });
    const days = tab(page).getByRole('textbox', { name: 'Expires in (days)' });
    await tab(page).getByRole('button', { name: 'Create token' }).click();
    await expect.poll(() => fieldError(nameBox), POLL).toBe('Name is required');
    await days.fill('400');
    await days.blur();
    await expect.poll(() => fieldError(days), POLL).toBe('Must be a whole number of days from 1 to 365');
    await days.fill('30');
    await tab(page).getByRole('button', { name: 'Create token' }).click();
    await expect.poll(() => fieldError(nameBox), POLL).toBe('Name is required');

    const token = await createInPage(page, 'Nightly export');
    expect(token).toMatch(/^sat_[A-Za-z0-9_-]{43}$/);
    await toast(page, 'success', 'API token created').waitFor();
    await expect.poll(() => tab(page).getByText('You will not see it again', { exact: false }).isVisible(), POLL).toBe(true);
    await tab(page).getByRole('button', { name: 'Copy token' }).click();
    await tab(page).getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    const row = tab(page).getByRole('list', { name: 'Your API tokens' }).getByRole('listitem', { name: 'Nightly export' });
    await row.waitFor();
    expect(await row.textContent()).toContain('Read only');
    await snap(page, 'api-tokens-created');

    // The token from outside the browser: it reads as this person, and a read token may not write.
    const me = await api<{ email: string }>(`users/${user.id}`, { token });
    expect(me).toMatchObject({ status: 200, body: { email: user.email } });
    expect((await api('tickets', { method: 'POST', token, body: { title: 'Not allowed' } })).status).toBe(403);

    // Done takes the token off the page for good; the list never had it.
    await tab(page).getByRole('button', { name: 'Done' }).click();
    await tab(page).getByRole('textbox', { name: 'New token' }).waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(token);
    await page.reload();
    await row.waitFor();
    expect(await page.content()).not.toContain(token);
    await expect.poll(async () => (await row.textContent()) ?? '', POLL).toMatch(/Last used/);

    await row.getByRole('button', { name: 'Remove Nightly export' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove API token' });
    await confirm.waitFor();
    await snap(page, 'api-tokens-remove');
    await confirm.getByRole('button', { name: 'Remove token' }).click();
    await toast(page, 'success', 'API token removed').waitFor();
    await row.waitFor({ state: 'detached' });
    expect((await api('tickets', { token })).status).toBe(401);
  });

  it('lets an admin see everyone’s tokens with their owners and remove one', async () => {
    const user = await createUser();
    const session = await sessionFor(user);
    const made = await api<CreatedApiToken>('auth/api-tokens', { method: 'POST', token: session.token, body: { name: `Export of ${user.firstName}`, expiresInDays: 7, access: 'write' } });
    expect(made.status).toBe(201);

    const page = await chrome.open(DESKTOP, { as: admin() });
    await openTab(page);
    await tab(page).getByRole('switch', { name: 'Show everyone’s tokens' }).check();
    const row = tab(page).getByRole('list', { name: 'Everyone’s API tokens' }).getByRole('listitem', { name: made.body.name });
    await row.waitFor();
    expect(await row.textContent()).toContain(`Owner: ${user.firstName} ${user.surname} (${user.email})`);
    expect(await row.textContent()).toContain('Read and write');
    await snap(page, 'api-tokens-everyone');
    await row.getByRole('button', { name: `Remove ${made.body.name}` }).click();
    await page.getByRole('dialog', { name: 'Remove API token' }).getByRole('button', { name: 'Remove token' }).click();
    await row.waitFor({ state: 'detached' });
    expect((await api('tickets', { token: made.body.token })).status).toBe(401);
    const left = await api<{ items: ApiToken[] }>('auth/api-tokens', { token: session.token });
    expect(left.body.items).toEqual([]);
  });

  const cases: { name: string; theme: 'light' | 'dark'; viewport: Viewport }[] = [
    { name: 'light', theme: 'light', viewport: DESKTOP },
    { name: 'dark', theme: 'dark', viewport: DESKTOP },
    { name: 'phone', theme: 'light', viewport: PHONE },
    { name: 'phone-dark', theme: 'dark', viewport: PHONE },
  ];

  it.each(cases)('has no axe violations with a new token shown and listed ($name)', async ({ name, theme, viewport }) => {
    const user = await createUser();
    const page = await chrome.open(viewport, { ...signedInAs(user), context: { reducedMotion: 'reduce' } });
    await page.addInitScript(({ key, value }) => localStorage.setItem(key, value), { key: THEME_STORAGE_KEY, value: theme });
    await openTab(page);
    await createInPage(page, 'Reporting', 'Read and write');
    await tab(page).getByRole('list', { name: 'Your API tokens' }).getByRole('listitem', { name: 'Reporting' }).waitFor();
    await snap(page, `api-tokens-${name}`);
    const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).analyze();
    expect(violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  });
});
