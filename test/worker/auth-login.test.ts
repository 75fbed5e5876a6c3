import { env } from 'cloudflare:test';
import { verify } from 'hono/jwt';
import { describe, expect, it } from 'vitest';
import { api, attemptLogin, createUser, decodeJwt, expectError, freshIp, readJson, type TestUser } from './support';

const EIGHT_HOURS = 8 * 60 * 60;
const nowSeconds = () => Math.floor(Date.now() / 1000);

const postLogin = (body: BodyInit, ip = freshIp()) =>
  api('auth/login', { method: 'POST', headers: { 'cf-connecting-ip': ip, 'content-type': 'application/json' }, body });

const wrongPassword = (user: TestUser) => ({ ...user, password: `${user.password}!` });

describe('successful login', () => {
  it('returns the user and an HS256 token for them, valid 8 hours, for this audience', async () => {
    const user = await createUser({ firstName: 'Ada', surname: 'Lovelace' });
    const res = await attemptLogin(user, { ip: freshIp() });
    const { status, body } = await readJson<Record<string, unknown>>(res);
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['email', 'firstName', 'role', 'surname', 'timeZone', 'token', 'userId']);
    expect(body).toMatchObject({ firstName: 'Ada', surname: 'Lovelace', email: user.email, userId: user.id, role: 'staff' });

    const token = body.token as string;
    const { header, payload } = decodeJwt(token);
    expect(header.alg).toBe('HS256');
    expect(payload.sub).toBe(String(user.id));
    expect(payload.sv).toBe(0);
    expect(payload.aud).toBe(env.APP_AUDIENCE);
    expect(Number(payload.exp) - nowSeconds()).toBeGreaterThan(EIGHT_HOURS - 60);
    expect(Number(payload.exp) - nowSeconds()).toBeLessThanOrEqual(EIGHT_HOURS);
    await expect(verify(token, env.JWT_SECRET, { alg: 'HS256', aud: env.APP_AUDIENCE })).resolves.toMatchObject({
      sub: String(user.id),
    });
  });

  it('matches the email case-insensitively', async () => {
    const user = await createUser({ email: `Mixed.Case-${crypto.randomUUID().slice(0, 6)}@Example.com` });
    for (const email of [user.email.toUpperCase(), user.email.toLowerCase()]) {
      const { status, body } = await readJson<{ userId: number; email: string }>(
        await attemptLogin({ ...user, email }, { ip: freshIp() }),
      );
      expect(status).toBe(200);
      expect(body).toMatchObject({ userId: user.id, email: user.email });
    }
  });
});

describe('refused credentials', () => {
  it('answers 401 to a wrong password and to an unknown email, with the same message', async () => {
    const user = await createUser();
    const wrong = await expectError(await attemptLogin(wrongPassword(user), { ip: freshIp() }), 401);
    const unknown = await expectError(
      await attemptLogin({ email: 'nobody-here@example.com', password: user.password }, { ip: freshIp() }),
      401,
    );
    expect(unknown.message).toBe(wrong.message);
  });

  it('answers 401 to another audience', async () => {
    const user = await createUser();
    await expectError(await attemptLogin(user, { ip: freshIp(), audience: `${env.APP_AUDIENCE}-other` }), 401);
  });

  it('answers 401, not 500, for a stored hash of more PBKDF2 rounds than deployed Workers compute', async () => {
    const user = await createUser();
    // The right password, hashed at 100,001 rounds: local workerd computes it, Cloudflare throws.
    const salt = crypto.getRandomValues(new Uint8Array(16));
    const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(user.password), 'PBKDF2', false, ['deriveBits']);
    const bits = new Uint8Array(await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations: 100_001 }, key, 256));
    const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
    await env.DB.prepare('UPDATE users SET password_hash = ?1 WHERE id = ?2').bind(`pbkdf2-sha256$100001$${base64(salt)}$${base64(bits)}`, user.id).run();
    await expectError(await attemptLogin(user, { ip: freshIp() }), 401);
  });

  it('answers 401 to a deactivated user with the right password', async () => {
    const user = await createUser({ isActive: false });
    await expectError(await attemptLogin(user, { ip: freshIp() }), 401);
  });
});

describe('invalid bodies', () => {
  const valid = { username: 'someone@example.com', password: 'secret', audience: 'staff-app' };

  it.each([
    ['malformed JSON', '{"username": '],
    ['an array', '[]'],
    ['a string', '"username"'],
    ['null', 'null'],
    ['an empty body', ''],
  ])('answers 400 with a message to %s', async (_, body) => {
    await expectError(await postLogin(body), 400);
  });

  it.each([
    ['username', 'Email is required'],
    ['password', 'Password is required'],
    ['audience', 'Audience is required'],
  ])('answers 400 naming the missing %s', async (field, message) => {
    const body = { ...valid } as Record<string, unknown>;
    delete body[field];
    const error = await expectError(await postLogin(JSON.stringify(body)), 400);
    expect(error.errors?.[field]).toContain(message);
  });

  it('lists every missing field at once', async () => {
    const error = await expectError(await postLogin('{}'), 400);
    expect(error.errors).toEqual({
      username: ['Email is required'],
      password: ['Password is required'],
      audience: ['Audience is required'],
    });
  });

  it.each([
    ['a number username', { username: 12345 }, 'username'],
    ['a boolean password', { password: true }, 'password'],
    ['an object audience', { audience: { name: 'staff-app' } }, 'audience'],
    ['a 300-character password', { password: 'p'.repeat(300) }, 'password'],
    ['a control character in the username', { username: 'some\u0000one@example.com' }, 'username'],
    ['a newline in the audience', { audience: 'staff-app\nx' }, 'audience'],
  ])('answers 400 to %s', async (_, change, field) => {
    const error = await expectError(await postLogin(JSON.stringify({ ...valid, ...change })), 400);
    expect(Object.keys(error.errors ?? {})).toContain(field);
  });

  it('answers 400 to an unknown extra field', async () => {
    const error = await expectError(await postLogin(JSON.stringify({ ...valid, isAdmin: true })), 400);
    expect(JSON.stringify(error)).toContain('isAdmin');
  });
});

describe('rate limiting', () => {
  const expectLimited = async (res: Response) => {
    await expectError(res, 429);
    const retryAfter = res.headers.get('retry-after') ?? '';
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(Number(retryAfter)).toBeLessThanOrEqual(15 * 60);
  };

  it('blocks an email from one address after 5 failures, even with the right password; another address still signs in', async () => {
    const user = await createUser();
    const ip = freshIp();
    // The email counts case-insensitively.
    for (const email of [user.email, user.email.toUpperCase(), user.email, user.email.toUpperCase(), user.email]) {
      await expectError(await attemptLogin({ ...wrongPassword(user), email }, { ip }), 401);
    }
    await expectLimited(await attemptLogin(user, { ip }));
    expect((await attemptLogin(user, { ip: freshIp() })).status).toBe(200);
  });

  it('blocks an address after 20 failures across emails, while other addresses still sign in', async () => {
    const user = await createUser();
    const ip = freshIp();
    for (let i = 0; i < 20; i++) {
      const stranger = { email: `stranger${i}-${crypto.randomUUID().slice(0, 6)}@example.com`, password: 'guess' };
      await expectError(await attemptLogin(stranger, { ip }), 401);
    }
    await expectLimited(await attemptLogin(user, { ip }));
    expect((await attemptLogin(user, { ip: freshIp() })).status).toBe(200);
  });

  it('forgets an email’s failures after a successful login', async () => {
    const user = await createUser();
    const ip = freshIp();
    const failFourTimes = async () => {
      for (let i = 0; i < 4; i++) await expectError(await attemptLogin(wrongPassword(user), { ip }), 401);
    };
    await failFourTimes();
    expect((await attemptLogin(user, { ip })).status).toBe(200);
    await failFourTimes();
    expect((await attemptLogin(user, { ip })).status).toBe(200);
  });
});
