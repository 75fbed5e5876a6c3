import { env } from 'cloudflare:test';
import { afterEach, expect, it, vi } from 'vitest';
import { api, createUser } from './support';

afterEach(() => {
  vi.restoreAllMocks();
});

type Pbkdf2 = { name?: string; iterations?: number };
const pbkdf2Runs = (spy: { mock: { calls: unknown[][] } }) =>
  spy.mock.calls.filter(([algorithm]) => (algorithm as Pbkdf2).name === 'PBKDF2' && (algorithm as Pbkdf2).iterations === 100_000).length;

// Response timing must not tell whether an account exists: an unknown email costs the same
// full PBKDF2 run as a known email with the wrong password.
it('runs one full PBKDF2 hash for a wrong email and for a wrong password alike', async () => {
  const user = await createUser();
  const spy = vi.spyOn(crypto.subtle, 'deriveBits');
  const attempt = (username: string, ip: string) =>
    api('auth/login', { method: 'POST', headers: { 'cf-connecting-ip': ip }, json: { username, password: 'wrong password', audience: env.APP_AUDIENCE } });

  expect((await attempt('nobody@example.com', '192.0.2.10')).status).toBe(401);
  const unknownEmail = pbkdf2Runs(spy);
  spy.mockClear();
  expect((await attempt(user.email, '192.0.2.11')).status).toBe(401);
  const wrongPassword = pbkdf2Runs(spy);

  expect(unknownEmail).toBe(1);
  expect(wrongPassword).toBe(1);
});
