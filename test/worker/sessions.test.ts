import { env } from 'cloudflare:test';
import { sign } from 'hono/jwt';
import { describe, expect, it } from 'vitest';
import { api, createUser, decodeJwt, expectError, login, signedIn } from './support';

// Security review (docs/decisions.md#the-security-review), findings 3 and 8: sign-out ends the token on the server, and a token must carry
// `exp`, a canonical `sub` and a token id.

const nowSeconds = () => Math.floor(Date.now() / 1000);
const logout = (token?: string) => api('auth/logout', { method: 'POST', token });
const comment = async (token: string) => {
  const ticket = await api('tickets', { method: 'POST', token, json: { title: 'Sign-out check' } });
  return ticket.status === 201 ? api(`tickets/${((await ticket.json()) as { id: number }).id}/comments`, { method: 'POST', token, json: { body: 'still here' } }) : ticket;
};

describe('POST auth/logout (finding 3)', () => {
  it('answers 204 and the presented token is refused from then on, for reads and writes', async () => {
    const { token } = await signedIn();
    expect((await api('users', { token })).status).toBe(200);
    const res = await logout(token);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    await expectError(await api('users', { token }), 401);
    await expectError(await comment(token), 401);
    await expectError(await logout(token), 401);
  });

  it('ends only that token: the same user signed in elsewhere keeps working', async () => {
    const { user, token: first } = await signedIn();
    const second = await login(user);
    expect((await logout(first)).status).toBe(204);
    await expectError(await api('users', { token: first }), 401);
    expect((await comment(second)).status).toBe(201);
  });

  it('keeps the revocation until the token would expire, and prunes ones past that', async () => {
    const { token } = await signedIn();
    const { jti, exp } = decodeJwt(token).payload as { jti: string; exp: number };
    await env.DB.prepare('INSERT INTO revoked_tokens (jti, expires_at) VALUES (?1, ?2)').bind('long-gone', nowSeconds() - 10).run();
    expect((await logout(token)).status).toBe(204);
    const rows = await env.DB.prepare("SELECT jti, expires_at FROM revoked_tokens WHERE jti IN (?1, 'long-gone')").bind(jti).all();
    expect(rows.results).toEqual([{ jti, expires_at: exp }]);
  });

  it('answers 401 without a token, and a signed-out session stays out under concurrent calls', async () => {
    await expectError(await logout(), 401);
    const { token } = await signedIn();
    const [out, ...others] = await Promise.all([logout(token), ...Array.from({ length: 5 }, () => logout(token))]);
    expect([out, ...others].filter((res) => res.status === 204).length).toBeGreaterThanOrEqual(1);
    await expectError(await api('users', { token }), 401);
  });
});

describe('token claims (finding 8)', () => {
  const tokenFor = (claims: Record<string, unknown>) => sign({ aud: env.APP_AUDIENCE, iat: nowSeconds(), ...claims }, env.JWT_SECRET, 'HS256');
  const valid = (userId: number) => ({ sub: String(userId), sv: 0, exp: nowSeconds() + 3600, jti: crypto.randomUUID() });

  it('issues tokens with exp, a canonical sub and a random jti', async () => {
    const { user, token } = await signedIn();
    const again = await login(user);
    const [a, b] = [decodeJwt(token).payload, decodeJwt(again).payload];
    expect(a.sub).toBe(String(user.id));
    expect(typeof a.exp).toBe('number');
    expect(a.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.jti).not.toBe(b.jti);
  });

  it('accepts the control: a token with every claim', async () => {
    const user = await createUser();
    expect((await api('users', { token: await tokenFor(valid(user.id)) })).status).toBe(200);
  });

  it('refuses a correctly signed token without exp', async () => {
    const user = await createUser();
    const { exp: _exp, ...claims } = valid(user.id);
    await expectError(await api('users', { token: await tokenFor(claims) }), 401);
  });

  it('refuses a token without a token id', async () => {
    const user = await createUser();
    const { jti: _jti, ...claims } = valid(user.id);
    await expectError(await api('users', { token: await tokenFor(claims) }), 401);
  });

  // Number() reads every one of these as the user's id.
  it.each<[string, (id: number) => string]>([
    ['hexadecimal', (id) => `0x${id.toString(16)}`],
    ['padded with spaces', (id) => ` ${id} `],
    ['with a fraction', (id) => `${id}.0`],
    ['with a leading zero', (id) => `0${id}`],
    ['with a plus sign', (id) => `+${id}`],
    ['with an exponent', (id) => `${id}e0`],
  ])('refuses a sub written %s', async (_, write) => {
    const user = await createUser();
    const sub = write(user.id);
    await expectError(await api('users', { token: await tokenFor({ ...valid(user.id), sub }) }), 401);
  });

  it('refuses a numeric (not string) sub', async () => {
    const user = await createUser();
    await expectError(await api('users', { token: await tokenFor({ ...valid(user.id), sub: user.id }) }), 401);
  });
});
