import { env } from 'cloudflare:test';
import { sign } from 'hono/jwt';
import { describe, expect, it } from 'vitest';
import { api, base64UrlEncode, createUser, decodeJwt, expectError, signedIn } from './support';

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A token as the provider would issue it (session version 0, a new account's), with any claim overridden. */
const tokenFor = (sub: string, claims: Record<string, unknown> = {}, secret = env.JWT_SECRET) =>
  sign({ sub, sv: 0, aud: env.APP_AUDIENCE, iat: nowSeconds(), exp: nowSeconds() + 3600, ...claims }, secret, 'HS256');

const listUsers = (authorization?: string) =>
  api('users', { headers: authorization === undefined ? {} : { authorization } });

describe('accepted', () => {
  // The control for the refusals below: tokenFor builds tokens the provider accepts.
  it('a token built like the provider’s, for an active user', async () => {
    const user = await createUser();
    expect((await listUsers(`Bearer ${await tokenFor(String(user.id))}`)).status).toBe(200);
  });

  it('a token from login, with the scheme in any case', async () => {
    const { token } = await signedIn();
    expect((await listUsers(`bearer ${token}`)).status).toBe(200);
  });
});

describe('refused with 401 JSON', () => {
  it('no Authorization header', async () => {
    await expectError(await listUsers(), 401);
  });

  it.each(['Bearer garbage', 'Bearer ', 'Basic dXNlcjpwYXNz', 'Bearer a.b.c', 'garbage'])('“%s”', async (header) => {
    await expectError(await listUsers(header), 401);
  });

  it('a token whose payload was changed to another user', async () => {
    const { token } = await signedIn();
    const other = await createUser();
    const [header, , signature] = token.split('.');
    const tampered = base64UrlEncode({ ...decodeJwt(token).payload, sub: String(other.id) });
    await expectError(await listUsers(`Bearer ${header}.${tampered}.${signature}`), 401);
  });

  it('an unsigned token (alg none)', async () => {
    const user = await createUser();
    const header = base64UrlEncode({ alg: 'none', typ: 'JWT' });
    const payload = base64UrlEncode({ sub: String(user.id), aud: env.APP_AUDIENCE, exp: nowSeconds() + 3600 });
    await expectError(await listUsers(`Bearer ${header}.${payload}.`), 401);
  });

  it('a token signed with another secret', async () => {
    const user = await createUser();
    await expectError(await listUsers(`Bearer ${await tokenFor(String(user.id), {}, `${env.JWT_SECRET}-not`)}`), 401);
  });

  it('an expired token', async () => {
    const user = await createUser();
    const token = await tokenFor(String(user.id), { iat: nowSeconds() - 7200, exp: nowSeconds() - 60 });
    await expectError(await listUsers(`Bearer ${token}`), 401);
  });

  it('a token for another audience', async () => {
    const user = await createUser();
    await expectError(await listUsers(`Bearer ${await tokenFor(String(user.id), { aud: 'another-app' })}`), 401);
  });

  it('a token without an audience', async () => {
    const user = await createUser();
    await expectError(await listUsers(`Bearer ${await tokenFor(String(user.id), { aud: undefined })}`), 401);
  });

  it('a token for a deactivated user', async () => {
    const user = await createUser({ isActive: false });
    await expectError(await listUsers(`Bearer ${await tokenFor(String(user.id))}`), 401);
  });

  // Reads run alongside the account check: whatever the read would have answered, the 401 wins
  // and none of the data goes out.
  it.each([
    ['a list', 'tickets?pageSize=5'],
    ['a record', 'users/1'],
    ['a record that does not exist', 'tickets/999999'],
    ['a bad query', 'tickets?sort=nonsense'],
    ['the dashboard', 'dashboard/summary'],
  ])('a deactivated user reading %s', async (_, path) => {
    const user = await createUser({ isActive: false });
    const body = await expectError(await api(path, { token: await tokenFor(String(user.id)) }), 401);
    expect(Object.keys(body)).toEqual(['message']);
  });

  it('a deactivated user writing: nothing is stored', async () => {
    const [active, deactivated] = [await createUser(), await createUser({ isActive: false })];
    const title = `written by ${deactivated.id}`;
    const post = async (userId: number) =>
      api('tickets', { method: 'POST', token: await tokenFor(String(userId)), json: { title, description: 'x', priority: 'low' } });
    await expectError(await post(deactivated.id), 401);
    // The control: the same call from an active account is stored.
    expect((await post(active.id)).status).toBe(201);
    const stored = await env.DB.prepare('SELECT reporter_id FROM tickets WHERE title = ?1').bind(title).all<{ reporter_id: number }>();
    expect(stored.results).toEqual([{ reporter_id: active.id }]);
  });

  it.each([
    ['no session version', { sv: undefined }],
    ['a session version as text', { sv: '0' }],
    ['a negative session version', { sv: -1 }],
    ['a newer session version than the account’s', { sv: 1 }],
  ])('a token with %s', async (_, claims) => {
    const user = await createUser();
    await expectError(await listUsers(`Bearer ${await tokenFor(String(user.id), claims)}`), 401);
  });

  it.each(['999999', '0', '-1', '1.5', 'abc'])('a token for user id “%s”, which does not exist', async (sub) => {
    await expectError(await listUsers(`Bearer ${await tokenFor(sub)}`), 401);
  });
});
