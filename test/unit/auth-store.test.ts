import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTH_STORAGE_KEY } from '../../src/client/lib/constants';
import type { LoginResponse } from '../../src/shared/types';

const login = (changes: Partial<LoginResponse> = {}): LoginResponse => ({
  token: 'tok',
  firstName: 'Ada',
  surname: 'Admin',
  email: 'ada@example.com',
  userId: 4,
  role: 'admin',
  ...changes,
});

/** The store as a fresh page load would build it from local storage. */
const freshStore = async () => {
  vi.resetModules();
  return import('../../src/client/lib/auth-store');
};

describe('auth store: the role', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => localStorage.clear());

  it('keeps the role from the login response and persists it with the user', async () => {
    const store = await freshStore();
    store.signIn(login({ role: 'billing' }));
    expect(store.authState.user?.role).toBe('billing');
    await Promise.resolve();
    expect(JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY) ?? '{}').user).toEqual({
      id: 4,
      firstName: 'Ada',
      surname: 'Admin',
      email: 'ada@example.com',
      role: 'billing',
    });
    const reloaded = await freshStore();
    expect(reloaded.authState.user?.role).toBe('billing');
    expect(reloaded.authState.token).toBe('tok');
  });

  it('reads a session stored before roles existed as signed in with no role', async () => {
    localStorage.setItem(AUTH_STORAGE_KEY, JSON.stringify({ token: 'old', user: { id: 3, firstName: 'B', surname: 'C', email: 'b@c.d' } }));
    const store = await freshStore();
    expect(store.authState.token).toBe('old');
    expect(store.authState.user).toMatchObject({ id: 3, role: null });
  });

  it('drops a role it does not know (a hand-edited entry) instead of trusting it', async () => {
    localStorage.setItem(AUTH_STORAGE_KEY, JSON.stringify({ token: 't', user: { id: 3, firstName: 'B', surname: 'C', email: 'b@c.d', role: 'root' } }));
    expect((await freshStore()).authState.user?.role).toBeNull();
    const store = await freshStore();
    store.signIn(login({ role: 'owner' as LoginResponse['role'] }));
    expect(store.authState.user?.role).toBeNull();
  });

  it('replaceToken swaps the token and keeps the user; a profile update keeps the role', async () => {
    const store = await freshStore();
    store.signIn(login());
    store.replaceToken('fresh');
    store.updateStoredUser({ firstName: 'Ida', surname: 'Admin', email: 'ida@example.com' });
    expect(store.authState.token).toBe('fresh');
    expect(store.authState.user).toMatchObject({ id: 4, firstName: 'Ida', role: 'admin' });
    await Promise.resolve();
    expect(JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY) ?? '{}').token).toBe('fresh');
  });
});

describe('useCan', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
  });

  it("follows the signed-in user's role, and a session without one may do nothing extra", async () => {
    const store = await freshStore();
    const { useCan } = await import('../../src/client/lib/permissions');
    const { result } = renderHook(() => [useCan('editInvoiceLines'), useCan('manageUsers'), useCan('readAuditLog')]);
    expect(result.current).toEqual([false, false, false]);
    await act(async () => store.signIn(login({ role: 'billing' })));
    expect(result.current).toEqual([true, false, false]);
    await act(async () => store.setStoredRole('admin'));
    expect(result.current).toEqual([true, true, true]);
    await act(async () => store.signOut());
    expect(result.current).toEqual([false, false, false]);
  });
});
