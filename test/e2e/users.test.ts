import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Page as ListPage, User } from '../../src/shared/types';
import {
  PHONE,
  POLL,
  adminApi,
  adminApiAnswer,
  apiLogin,
  apiResponse,
  browserPerFile,
  drawer,
  drawerTitle,
  expectFullWidthDrawer,
  expectText,
  heading,
  screenshot,
  tableLoaded,
  tableRows,
  textOf,
  toast,
  uniqueTag,
} from './fixtures';

const chrome = browserPerFile();

interface NewUser {
  id: number;
  firstName: string;
  surname: string;
  email: string;
  password: string;
}

/** A user of this test alone, made through the API. */
const makeUser = async (): Promise<NewUser> => {
  const tag = uniqueTag();
  const fields = { firstName: `Una${tag}`, surname: 'Listed', email: `users-${tag}@example.com`, password: `pw-${tag}-secret` };
  const user = await adminApi<User>('users', { method: 'POST', body: fields });
  return { ...fields, id: user.id };
};

const params = (page: Page) => new URL(page.url()).searchParams;

describe('users page', () => {
  it('lists users, and searching by a unique name narrows the list to that user', async () => {
    const user = await makeUser();
    const page = await chrome.open();
    await page.goto('/users/');
    await heading(page, 'Users');
    await tableLoaded(page, 'Users');
    const all = await adminApi<ListPage<User>>('users');
    expect(await tableRows(page, 'Users').count()).toBe(all.items.length);
    expect(all.items.length).toBeGreaterThan(1);
    await screenshot(page, 'users-list-desktop');

    const searched = apiResponse(page, new RegExp(`^users\\?.*q=${user.firstName}`));
    await page.getByRole('searchbox', { name: 'Search' }).fill(user.firstName);
    expect((await searched).status()).toBe(200);
    await expect.poll(() => tableRows(page, 'Users').count(), POLL).toBe(1);
    expect(await textOf(tableRows(page, 'Users').first())).toContain(`${user.firstName} ${user.surname}`);
    expect(await textOf(tableRows(page, 'Users').first())).toContain(user.email);
    await page.getByText('1 record', { exact: true }).waitFor();
  });

  it("creates a user through 'New user': toast, then the address holds the new id and component=details", async () => {
    const tag = uniqueTag();
    const page = await chrome.open();
    await page.goto('/users/');
    await heading(page, 'Users');
    await page.getByRole('button', { name: 'New user' }).click();
    await page.waitForURL((url) => url.searchParams.get('component') === 'create');
    expect(params(page).get('id')).toBeNull();
    const panel = drawer(page);
    await expectText(drawerTitle(page), 'New user');

    await panel.getByLabel('First Name').fill(`Cara${tag}`);
    await panel.getByLabel('Surname').fill('Created');
    await panel.getByLabel('Email Address').fill(`created-${tag}@example.com`);
    await panel.getByLabel('Password', { exact: true }).fill(`pw-${tag}-secret`);
    await screenshot(page, 'users-create-desktop');
    const posted = apiResponse(page, /^users$/, 'POST');
    await panel.getByRole('button', { name: 'Create user' }).click();
    const created = (await (await posted).json()) as User;
    expect((await posted).status()).toBe(201);

    await toast(page, 'success', 'User created').waitFor();
    await page.waitForURL((url) => url.searchParams.get('id') === String(created.id) && url.searchParams.get('component') === 'details');
    await expectText(drawerTitle(page), `Cara${tag} Created`);
    // The record's details; its History lists the same email once it has loaded.
    await panel.getByRole('definition').filter({ hasText: `created-${tag}@example.com` }).waitFor();

    const stored = await adminApi<User>(`users/${created.id}`);
    expect(stored).toMatchObject({ firstName: `Cara${tag}`, surname: 'Created', email: `created-${tag}@example.com`, isActive: true });
    // The new account signs in with the password typed into the form.
    expect((await apiLogin({ email: `created-${tag}@example.com`, password: `pw-${tag}-secret` })).status).toBe(200);
  });

  it('opens the edit form by address, and saving a new surname shows and stores it', async () => {
    const user = await makeUser();
    const page = await chrome.open();
    await page.goto(`/users/?id=${user.id}&component=edit`);
    await heading(page, 'Users');
    const panel = drawer(page);
    const surname = panel.getByLabel('Surname');
    await surname.waitFor();
    expect(await panel.getByLabel('First Name').inputValue()).toBe(user.firstName);
    expect(await surname.inputValue()).toBe(user.surname);
    expect(await panel.getByLabel('Email Address').inputValue()).toBe(user.email);
    await screenshot(page, 'users-edit-desktop');

    await surname.fill('Renamed');
    await panel.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'success', 'User updated').waitFor();
    await page.waitForURL((url) => url.searchParams.get('component') === 'details' && url.searchParams.get('id') === String(user.id));
    await expectText(drawerTitle(page), `${user.firstName} Renamed`);
    expect((await adminApi<User>(`users/${user.id}`)).surname).toBe('Renamed');
  });

  it('Deactivate asks first, naming the person and what happens, then flips the status badge to Inactive and the user can no longer sign in', async () => {
    const user = await makeUser();
    const name = `${user.firstName} ${user.surname}`;
    const page = await chrome.open();
    let patches = 0;
    page.on('request', (request) => {
      if (request.method() === 'PATCH' && new URL(request.url()).pathname === '/api/v1/users') patches += 1;
    });
    await page.goto(`/users/?id=${user.id}`);
    const panel = drawer(page);
    // The record's facts (the drawer's History also names the status, before and after).
    const facts = panel.locator('dl').first();
    await expectText(drawerTitle(page), name);
    await facts.getByText('Active', { exact: true }).waitFor();

    // Cancel changes nothing.
    const opener = panel.getByRole('button', { name: 'Deactivate' });
    await opener.click();
    const confirm = page.getByRole('dialog', { name: 'Deactivate user?' });
    await confirm.waitFor();
    const said = (await confirm.textContent()) ?? '';
    expect(said).toContain(name);
    expect(said).toContain(user.email);
    expect(said).toContain('can no longer sign in');
    await screenshot(page, 'users-deactivate-confirm-desktop');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => confirm.count(), POLL).toBe(0);
    // Focus goes back to the button that opened the dialog.
    await expect.poll(() => opener.evaluate((element) => element === document.activeElement), POLL).toBe(true);
    expect(patches).toBe(0);
    expect((await adminApi<User>(`users/${user.id}`)).isActive).toBe(true);

    await opener.click();
    await confirm.getByRole('button', { name: 'Deactivate', exact: true }).click();
    await toast(page, 'success', 'User deactivated').waitFor();
    expect(patches).toBe(1);
    await facts.getByText('Inactive', { exact: true }).waitFor();
    expect(await facts.getByText('Active', { exact: true }).count()).toBe(0);
    await panel.getByRole('button', { name: 'Activate' }).waitFor();

    expect((await adminApi<User>(`users/${user.id}`)).isActive).toBe(false);
    expect((await apiLogin(user)).status).toBe(401);
  });

  it("shows 'Required' under every empty field when an empty create form is submitted, and sends nothing", async () => {
    const page = await chrome.open();
    let posts = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/v1/users') posts += 1;
    });
    await page.goto('/users/?component=create');
    const panel = drawer(page);
    await panel.getByRole('button', { name: 'Create user' }).click();
    for (const label of ['First Name', 'Surname', 'Email Address']) {
      const field = panel.getByLabel(label);
      await expect.poll(() => field.getAttribute('aria-invalid'), POLL).toBe('true');
    }
    await expect.poll(() => panel.getByText('Required', { exact: true }).count(), POLL).toBe(4);
    await screenshot(page, 'users-create-invalid-desktop');
    expect(posts).toBe(0);
    expect(params(page).get('component')).toBe('create');
  });

  it('/users/?id=abc shows the list without a drawer', async () => {
    const page = await chrome.open();
    await page.goto('/users/?id=abc');
    await heading(page, 'Users');
    await tableLoaded(page, 'Users');
    expect(await tableRows(page, 'Users').count()).toBeGreaterThan(1);
    expect(await drawer(page).count()).toBe(0);
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('an unknown user id opens the drawer with the not-found message', async () => {
    expect((await adminApiAnswer('users/999999')).status).toBe(404);
    const page = await chrome.open();
    await page.goto('/users/?id=999999');
    await drawer(page).getByText('User not found').waitFor();
    // A failed read says so under its own title and offers to ask again.
    await drawer(page).getByRole('button', { name: 'Try again' }).waitFor();
    await screenshot(page, 'users-not-found-desktop');
  });

  it('at phone width renders its h1 and the user drawer fills the screen', async () => {
    const user = await makeUser();
    const page = await chrome.open(PHONE);
    await page.goto('/users/');
    await heading(page, 'Users');
    await tableLoaded(page, 'Users');
    await screenshot(page, 'users-list-phone');
    await tableRows(page, 'Users').first().click();
    await expectFullWidthDrawer(page);
    await page.goto(`/users/?id=${user.id}`);
    await heading(page, 'Users');
    await expectText(drawerTitle(page), `${user.firstName} ${user.surname}`);
    await expectFullWidthDrawer(page);
    await screenshot(page, 'users-drawer-phone');
  });
});
