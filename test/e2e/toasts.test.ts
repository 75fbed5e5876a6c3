import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BACKUP_API, DESKTOP, LOGIN_API, PROFILE_API, VIEWPORTS, admin, browserForFile, fillLogin, pause, settledBox, snap, toastWith, type Box } from './fixtures';

const chrome = browserForFile();

const cards = (page: Page) => page.locator('[data-toast-id]');
const shownCards = (page: Page) => page.locator('[data-toast-id][data-visible="true"]');

/**
 * Raises one toast per status through the login form, whose login call is answered here and
 * never reaches the server: 401 gives 'Invalid Credentials', anything else 'Login Failed'.
 */
const raiseToasts = async (page: Page, statuses: number[]) => {
  const queue = [...statuses];
  await page.route(LOGIN_API, (route) =>
    route.fulfill({ status: queue.shift() ?? 401, contentType: 'application/json', body: '{"message":"no"}' }),
  );
  await page.goto('/login/');
  await fillLogin(page, { email: 'nobody@example.com', password: 'not-a-password' });
  for (let i = 0; i < statuses.length; i += 1) {
    const answered = page.waitForResponse(LOGIN_API);
    await page.getByRole('button', { name: 'Login' }).click();
    await answered;
  }
  await expect.poll(() => cards(page).count()).toBeGreaterThanOrEqual(Math.min(statuses.length, 3));
};

/**
 * Raises `count` different error toasts inside the signed-in app (identical toasts replace each
 * other): profile updates whose calls are answered here, each failing with its own message.
 */
const raiseDistinctToasts = async (page: Page, count: number) => {
  let failures = 0;
  await page.route(PROFILE_API, (route) => {
    if (route.request().method() === 'GET') return route.continue();
    failures += 1;
    return route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: `Injected failure ${failures}` }) });
  });
  await page.goto('/dashboard?settings=true&tab=profile');
  const update = page.getByRole('button', { name: 'Update Profile' });
  for (let i = 0; i < count; i += 1) {
    const answered = page.waitForResponse((response) => response.url().includes('/api/v1/users/profile') && response.request().method() !== 'GET');
    await update.click();
    await answered;
    await toastWith(page, `Injected failure ${i + 1}`).first().waitFor();
  }
};

/** Raises a success toast inside the signed-in app: a database backup whose call is answered here. */
const raiseToastInApp = async (page: Page) => {
  await page.route(BACKUP_API, (route) =>
    route.fulfill({ status: 201, contentType: 'application/json', body: JSON.stringify({ key: 'e2e', createdAt: new Date().toISOString(), bytes: 1, rows: {} }) }),
  );
  await page.goto('/dashboard?settings=true&tab=database');
  await page.getByRole('button', { name: 'Backup Database' }).click();
  await toastWith(page, 'Database backup complete').waitFor();
};

/** Boxes of the shown toasts, top to bottom, once they have stopped moving. */
const shownBoxes = async (page: Page): Promise<Box[]> => {
  const count = await shownCards(page).count();
  const boxes = await Promise.all(Array.from({ length: count }, (_, i) => settledBox(shownCards(page).nth(i))));
  return boxes.sort((a, b) => a.y - b.y);
};

/** Drags the toast sideways with the mouse by `dx` pixels. */
const drag = async (page: Page, toast: Locator, dx: number) => {
  const box = await settledBox(toast);
  const x = box.x + box.width / 3;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y, { steps: 8 });
  await page.mouse.up();
};

describe('toast area', () => {
  it('shows at most three toasts, newest on top', async () => {
    const page = await chrome.open(DESKTOP, { as: admin() });
    await raiseDistinctToasts(page, 5);
    await pause(400);
    expect(await shownCards(page).count()).toBe(3);
    await expect.poll(() => cards(page).count()).toBe(3);
    const top = (await shownBoxes(page))[0];
    const newest = await settledBox(toastWith(page, 'Injected failure 5'));
    expect(newest.y).toBe(top?.y);
  });

  it.each(VIEWPORTS)('sits top-right, 356 px wide, 14 px apart ($name)', async ({ name, viewport }) => {
    const page = await chrome.open(viewport);
    await raiseToasts(page, [401, 500]);
    const [first, second] = await shownBoxes(page);
    if (!first || !second) throw new Error('expected two toasts on screen');
    const inset = viewport.width === DESKTOP.width ? 24 : 16;
    expect(Math.round(first.y)).toBe(inset);
    expect(Math.round(viewport.width - (first.x + first.width))).toBe(inset);
    expect(Math.round(first.width)).toBe(356);
    expect(Math.round(second.y - (first.y + first.height))).toBe(14);
    await snap(page, `toasts-${name}`);
  });

  // Mantine's own styles load with the page's code, so the toast card is checked on both sides
  // of sign-in: the login page and the signed-in app.
  it.each([
    { where: 'on the login page', signedIn: false, raise: (page: Page) => raiseToasts(page, [401]), title: 'Invalid Credentials' },
    { where: 'in the signed-in app', signedIn: true, raise: raiseToastInApp, title: 'Database backup complete' },
  ])('puts the close button in the top-right corner of the coloured toast ($where)', async ({ signedIn, raise, title }) => {
    const page = await chrome.open(DESKTOP, signedIn ? { as: admin() } : {});
    await raise(page);
    const card = toastWith(page, title);
    const content = await settledBox(card.getByTestId('toast'));
    const close = await settledBox(card.getByRole('button', { name: 'Close notification' }));
    const whole = await settledBox(card);
    // The card is the coloured content and nothing more: no extra strip for the button.
    expect(Math.round(whole.height)).toBe(Math.round(content.height));
    expect(close.x).toBeGreaterThan(content.x + content.width / 2);
    expect(close.x + close.width).toBeLessThanOrEqual(content.x + content.width);
    expect(close.y).toBeGreaterThanOrEqual(content.y);
    expect(close.y + close.height).toBeLessThanOrEqual(content.y + content.height / 2 + close.height);
  });

  it('closes one toast with its close button', async () => {
    const page = await chrome.open();
    await raiseToasts(page, [401, 500]);
    const newest = toastWith(page, 'Login Failed');
    await newest.getByRole('button', { name: 'Close notification' }).click();
    await newest.waitFor({ state: 'detached' });
    expect(await cards(page).count()).toBe(1);
    expect(await toastWith(page, 'Invalid Credentials').count()).toBe(1);
  });

  it('dismisses every toast on Escape', async () => {
    const page = await chrome.open(DESKTOP, { as: admin() });
    await raiseDistinctToasts(page, 3);
    await page.keyboard.press('Escape');
    await expect.poll(() => cards(page).count(), { timeout: 2000 }).toBe(0);
  });

  it('moves focus into the newest toast on Alt+T', async () => {
    const page = await chrome.open();
    await raiseToasts(page, [401, 500]);
    const focusedToast = () => page.evaluate(() => document.activeElement?.closest('[data-toast-id]')?.textContent ?? null);
    expect(await focusedToast()).toBeNull();
    await page.keyboard.press('Alt+T');
    expect(await focusedToast()).toContain('Login Failed');
  });

  it('dismisses a toast dragged 60 px sideways, but not one dragged 20 px', async () => {
    const page = await chrome.open();
    await raiseToasts(page, [401, 500]);
    const older = toastWith(page, 'Invalid Credentials');
    const newer = toastWith(page, 'Login Failed');

    await drag(page, newer, 20);
    await pause(500);
    expect(await newer.getAttribute('data-visible')).toBe('true');
    expect(await newer.evaluate((element) => getComputedStyle(element).transform)).toMatch(/^(none|matrix\(1, 0, 0, 1, 0, 0\))$/);

    await drag(page, older, 60);
    await older.waitFor({ state: 'detached', timeout: 2000 });
    expect(await newer.getAttribute('data-visible')).toBe('true');
  });

  it('goes away by itself after about 4 seconds', async () => {
    const page = await chrome.open();
    await raiseToasts(page, [401]);
    // Hovering the toasts pauses their timers; keep the mouse well away from them.
    await page.mouse.move(10, DESKTOP.height - 10);
    const toast = toastWith(page, 'Invalid Credentials');
    await pause(3000);
    expect(await toast.getAttribute('data-visible')).toBe('true');
    await pause(2000);
    expect(await cards(page).count()).toBe(0);
  });
});
