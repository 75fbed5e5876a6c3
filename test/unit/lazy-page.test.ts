import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadPage, RELOAD_FLAG } from '../../src/client/app/lazy-page';

const broken = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
const fine = () => Promise.resolve({ Page: 'page' });

/** Resolves to 'pending' when the promise neither settles nor rejects within a tick. */
const settled = (promise: Promise<unknown>) =>
  Promise.race([
    promise.then(
      () => 'loaded',
      () => 'failed',
    ),
    new Promise((resolve) => setTimeout(() => resolve('pending'), 10)),
  ]);

describe('loadPage: one reload per broken chunk', () => {
  let reload: ReturnType<typeof vi.spyOn>;

  beforeEach(() => {
    sessionStorage.clear();
    reload = vi.spyOn(window.location, 'reload').mockImplementation(() => {});
  });
  afterEach(() => vi.restoreAllMocks());

  it('reloads on the first failure and waits for the reload instead of failing', async () => {
    expect(await settled(loadPage(broken, 'UsersPage'))).toBe('pending');
    expect(reload).toHaveBeenCalledTimes(1);
    expect(sessionStorage.getItem(RELOAD_FLAG)).toBe('UsersPage');
  });

  it('fails, without reloading, when the same page fails again after the reload', async () => {
    sessionStorage.setItem(RELOAD_FLAG, 'UsersPage');
    await expect(loadPage(broken, 'UsersPage')).rejects.toThrow(/dynamically imported module/);
    expect(reload).not.toHaveBeenCalled();
    expect(sessionStorage.getItem(RELOAD_FLAG)).toBeNull();
  });

  it('keeps the flag when another page loads fine, so a page that stays broken cannot reload forever', async () => {
    sessionStorage.setItem(RELOAD_FLAG, 'UsersPage');
    await loadPage(fine, 'AuthenticatedLayout');
    expect(sessionStorage.getItem(RELOAD_FLAG)).toBe('UsersPage');
    await expect(loadPage(broken, 'UsersPage')).rejects.toThrow();
    expect(reload).not.toHaveBeenCalled();
  });

  it('clears the flag when the page that caused the reload loads fine', async () => {
    sessionStorage.setItem(RELOAD_FLAG, 'UsersPage');
    await loadPage(fine, 'UsersPage');
    expect(sessionStorage.getItem(RELOAD_FLAG)).toBeNull();
  });
});
