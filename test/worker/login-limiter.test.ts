import { createExecutionContext, env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/worker/index';
import { ORIGIN, api, attemptLogin, createUser, expectError, freshIp, type TestUser } from './support';

// Security review (docs/decisions.md#the-security-review), findings 1, 2 and 13: the sign-in limiter counts before the password check, locks a
// (email, address) pair rather than the account, and takes the address only from where it can
// be trusted.

// README's figures: 5 per (email, address) and 20 per address in 15 minutes, 100 per email in an hour.
const LOGIN_LIMITS = {
  pair: { limit: 5 },
  address: { limit: 20 },
  email: { limit: 100, seconds: 60 * 60 },
};

const wrong = (user: TestUser) => ({ ...user, password: `${user.password}!` });
const statuses = (responses: Response[]) => responses.map((res) => res.status).sort();
const count = (values: number[], value: number) => values.filter((v) => v === value).length;

describe('a burst of parallel attempts (finding 1)', () => {
  it('gets no more tries than serial ones: 12 at once with 3 left are 3 × 401 and 9 × 429', async () => {
    const user = await createUser();
    const ip = freshIp();
    for (let i = 0; i < LOGIN_LIMITS.pair.limit - 3; i++) await expectError(await attemptLogin(wrong(user), { ip }), 401);
    const burst = statuses(await Promise.all(Array.from({ length: 12 }, () => attemptLogin(wrong(user), { ip }))));
    expect({ 401: count(burst, 401), 429: count(burst, 429) }).toEqual({ 401: 3, 429: 9 });
  });

  it('does not check the right password once the tries are used up, even in the same burst', async () => {
    const user = await createUser();
    const ip = freshIp();
    const burst = await Promise.all([
      ...Array.from({ length: 10 }, () => attemptLogin(wrong(user), { ip })),
      attemptLogin(user, { ip }),
    ]);
    const all = statuses(burst);
    // Five counted tries in all, whichever of them happened to be the right one; the right
    // password is either one of them (200) or refused unchecked (429), never a 401.
    expect(all.filter((s) => s !== 429)).toHaveLength(LOGIN_LIMITS.pair.limit);
    expect(count(all, 429)).toBe(11 - LOGIN_LIMITS.pair.limit);
    expect([200, 429]).toContain(burst.at(-1)?.status);
  });

  it('holds the per-address cap under a parallel spray across accounts', async () => {
    const ip = freshIp();
    const spray = statuses(
      await Promise.all(
        Array.from({ length: 30 }, (_, i) => attemptLogin({ email: `spray${i}-${crypto.randomUUID().slice(0, 6)}@example.com`, password: 'guess' }, { ip })),
      ),
    );
    expect({ 401: count(spray, 401), 429: count(spray, 429) }).toEqual({ 401: LOGIN_LIMITS.address.limit, 429: 30 - LOGIN_LIMITS.address.limit });
  });
});

describe('lockout per (email, address) (finding 2)', () => {
  it('a stranger’s failures, in parallel, do not lock the account for its owner at another address', async () => {
    const user = await createUser();
    const stranger = freshIp();
    const burst = statuses(await Promise.all(Array.from({ length: 40 }, () => attemptLogin(wrong(user), { ip: stranger }))));
    expect(count(burst, 401)).toBe(LOGIN_LIMITS.pair.limit);
    await expectError(await attemptLogin(user, { ip: stranger }), 429);
    // The owner, from a clean address, signs in at once and again.
    expect((await attemptLogin(user, { ip: freshIp() })).status).toBe(200);
    expect((await attemptLogin(user, { ip: freshIp() })).status).toBe(200);
  });

  it('a blocked pair does not use up the account’s global allowance, however often it is retried', async () => {
    const user = await createUser();
    const stranger = freshIp();
    for (let round = 0; round < 4; round++) {
      await Promise.all(Array.from({ length: 40 }, () => attemptLogin(wrong(user), { ip: stranger })));
    }
    const row = await env.DB.prepare('SELECT count FROM login_attempts WHERE key = ?1').bind(`email:${user.email.toLowerCase()}`).first<number>('count');
    expect(row).toBe(LOGIN_LIMITS.pair.limit);
    expect((await attemptLogin(user, { ip: freshIp() })).status).toBe(200);
  });

  it('caps guesses at one account from many addresses together (the slower global cap)', async () => {
    const user = await createUser();
    const perAddress = LOGIN_LIMITS.pair.limit;
    const addresses = Math.ceil(LOGIN_LIMITS.email.limit / perAddress);
    for (let a = 0; a < addresses; a++) {
      const ip = freshIp();
      await Promise.all(Array.from({ length: perAddress }, () => attemptLogin(wrong(user), { ip })));
    }
    const res = await attemptLogin(user, { ip: freshIp() });
    await expectError(res, 429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(LOGIN_LIMITS.email.seconds);
  });

  it('a right password from a clean address gives its try back to the global count', async () => {
    const user = await createUser();
    for (let i = 0; i < 3; i++) expect((await attemptLogin(user, { ip: freshIp() })).status).toBe(200);
    const row = await env.DB.prepare('SELECT count FROM login_attempts WHERE key = ?1').bind(`email:${user.email.toLowerCase()}`).first<number>('count');
    expect(row).toBe(0);
  });
});

describe('the client address (finding 13)', () => {
  /** The app as a local run configures it: CF-Connecting-IP not trusted (scripts/serve.ts, .dev.vars). */
  const local = createApp();
  const localLogin = (user: Pick<TestUser, 'email' | 'password'>, headers: Record<string, string> = {}) =>
    local.fetch(
      new Request(`${ORIGIN}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ username: user.email, password: user.password, audience: env.APP_AUDIENCE }),
      }),
      { ...env, TRUST_CF_CONNECTING_IP: 'false' },
      createExecutionContext(),
    );

  it('locally, a client cannot pick a fresh bucket by sending its own CF-Connecting-IP', async () => {
    const user = await createUser();
    for (let i = 0; i < LOGIN_LIMITS.pair.limit; i++) {
      await expectError(await localLogin(wrong(user), { 'cf-connecting-ip': freshIp() }), 401);
    }
    await expectError(await localLogin(user, { 'cf-connecting-ip': freshIp() }), 429);
    await expectError(await localLogin(user), 429);
  });

  it('requests without an address do not share one bucket across accounts', async () => {
    // Far more failures without an address than the per-address cap, spread over accounts...
    const strangers = Array.from({ length: LOGIN_LIMITS.address.limit + 5 }, (_, i) => ({
      email: `noaddress${i}-${crypto.randomUUID().slice(0, 6)}@example.com`,
      password: 'guess',
    }));
    const spray = statuses(await Promise.all(strangers.map((stranger) => localLogin(stranger))));
    expect(count(spray, 401)).toBe(strangers.length);
    // ...and another account without an address still signs in, in production and locally alike.
    const user = await createUser();
    expect((await localLogin(user)).status).toBe(200);
    const res = await api('auth/login', { method: 'POST', json: { username: user.email, password: user.password, audience: env.APP_AUDIENCE } });
    expect(res.status).toBe(200);
    const keys = (await env.DB.prepare("SELECT key FROM login_attempts WHERE key LIKE '%unknown%'").all()).results;
    expect(keys).toEqual([]);
  });

  it('in production (Cloudflare sets and overwrites the header), two addresses are two buckets', async () => {
    const user = await createUser();
    const first = freshIp();
    for (let i = 0; i < LOGIN_LIMITS.pair.limit; i++) await expectError(await attemptLogin(wrong(user), { ip: first }), 401);
    await expectError(await attemptLogin(user, { ip: first }), 429);
    expect((await attemptLogin(user, { ip: freshIp() })).status).toBe(200);
  });

  it('a header that is not an address counts as no address', async () => {
    const user = await createUser();
    for (let i = 0; i < LOGIN_LIMITS.pair.limit; i++) {
      await expectError(await attemptLogin(wrong(user), { ip: `not an address ${i}` }), 401);
    }
    await expectError(await attemptLogin(user, { ip: 'still not one' }), 429);
    expect((await attemptLogin(user, { ip: freshIp() })).status).toBe(200);
  });
});
