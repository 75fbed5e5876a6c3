import { env } from 'cloudflare:test';
import { sign } from 'hono/jwt';
import { describe, expect, it } from 'vitest';
import { api, base64UrlEncode, createUser, decodeJwt, expectError, signedIn } from './support';

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A token as the provider would issue it, with any claim overridden. */
const tokenFor = (sub: string, claims: Record<string, unknown> = {}, secret = env.JWT_SECRET) =>
  sign({ sub, aud: env.APP_AUDIENCE, iat: nowSeconds(), exp: nowSeconds() + 3600, ...claims }, secret, 'HS256');

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

  it.each(['999999', '0', '-1', '1.5', 'abc'])('a token for user id “%s”, which does not exist', async (sub) => {
    await expectError(await listUsers(`Bearer ${await tokenFor(sub)}`), 401);
  });
});
