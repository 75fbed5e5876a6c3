import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AuditEntry, LoginResponse, Page, Passkey, PasskeyCreationOptions, PasskeyRequestOptions } from '../../src/shared/types';
import { Authenticator, handleOf, TEST_RP_ID, type Spoil } from './authenticator';
import { api, expectError, readJson, signedIn, type TestUser } from './support';

// Passkeys (docs/api.md#passkeys): registration and sign-in with answers a real authenticator
// would give (test/worker/authenticator.ts), and every check the provider makes on them.

interface Person {
  user: TestUser;
  token: string;
}

let person: Person;

const post = (path: string, json?: unknown, token?: string) => api(path, { method: 'POST', token, ...(json === undefined ? {} : { json }) });

const registerOptions = async (who: Person) => {
  const { status, body, text } = await readJson<PasskeyCreationOptions>(await post('auth/passkeys/register-options', undefined, who.token));
  expect(status, text).toBe(200);
  return body;
};

const loginOptions = async () => {
  const { status, body, text } = await readJson<PasskeyRequestOptions>(await post('auth/passkeys/login-options'));
  expect(status, text).toBe(200);
  return body;
};

const add = async (who: Person, authenticator: Authenticator, spoil: Spoil = {}, name = 'Work laptop') =>
  post('auth/passkeys', { name, response: await authenticator.register(await registerOptions(who), spoil) }, who.token);

/** A registered passkey of `who`'s. */
const registered = async (who: Person, name = 'Work laptop') => {
  const authenticator = await Authenticator.create();
  const res = await add(who, authenticator, {}, name);
  const { status, body, text } = await readJson<Passkey>(res);
  expect(status, text).toBe(201);
  return { authenticator, passkey: body };
};

const signIn = async (authenticator: Authenticator, spoil: Spoil = {}) =>
  post('auth/passkeys/login', { response: await authenticator.signIn(await loginOptions(), spoil), audience: env.APP_AUDIENCE });

const listOf = async (who: Person) => (await readJson<{ items: Passkey[] }>(await api('auth/passkeys', { token: who.token }))).body.items;

const entries = async (userId: number, action: string) =>
  (
    await env.DB.prepare('SELECT action, entity, entity_id, actor_id, changes FROM audit_log WHERE entity_id = ?1 AND action = ?2 ORDER BY id')
      .bind(userId, action)
      .all<{ action: string; entity: string; entity_id: number; actor_id: number | null; changes: string }>()
  ).results.map((row) => ({ ...row, changes: JSON.parse(row.changes) as Record<string, unknown> }));

beforeEach(async () => {
  person = await signedIn('staff');
});

describe('registering and signing in', () => {
  it('saves a passkey, lists it, and signs its owner in with the auth/login answer', async () => {
    const options = await registerOptions(person);
    expect(options.rp.id).toBe(TEST_RP_ID);
    expect(options.user).toEqual({ id: handleOf(person.user.id), name: person.user.email, displayName: `${person.user.firstName} ${person.user.surname}` });
    expect(options.authenticatorSelection).toEqual({ residentKey: 'required', requireResidentKey: true, userVerification: 'preferred' });
    expect(options.pubKeyCredParams.map((p) => p.alg)).toEqual([-7, -257]);
    expect(options.timeout).toBe(300_000);
    expect(options.excludeCredentials).toEqual([]);

    const authenticator = await Authenticator.create();
    const res = await post('auth/passkeys', { name: '  Work laptop  ', response: await authenticator.register(options) }, person.token);
    const { status, body: passkey, text } = await readJson<Passkey>(res);
    expect(status, text).toBe(201);
    expect(Object.keys(passkey).sort()).toEqual(['createdAt', 'id', 'lastUsedAt', 'name']);
    expect(passkey).toMatchObject({ name: 'Work laptop', lastUsedAt: null });
    expect(await listOf(person)).toEqual([passkey]);
    // The next registration tells the browser not to make a second passkey on the same authenticator.
    expect((await registerOptions(person)).excludeCredentials).toEqual([{ type: 'public-key', id: authenticator.id, transports: ['internal'] }]);

    const requestOptions = await loginOptions();
    expect(requestOptions).toMatchObject({ rpId: TEST_RP_ID, allowCredentials: [], userVerification: 'preferred', timeout: 300_000 });
    const login = await readJson<LoginResponse>(await post('auth/passkeys/login', { response: await authenticator.signIn(requestOptions), audience: env.APP_AUDIENCE }));
    expect(login.status, login.text).toBe(200);
    expect(Object.keys(login.body).sort()).toEqual(['email', 'firstName', 'role', 'surname', 'timeZone', 'token', 'userId']);
    expect(login.body).toMatchObject({ userId: person.user.id, email: person.user.email, role: 'staff' });
    // The token works like a password sign-in's.
    expect((await api('auth/passkeys', { token: login.body.token })).status).toBe(200);
    const [used] = await listOf(person);
    expect(used?.lastUsedAt).not.toBeNull();

    expect(await entries(person.user.id, 'passkey_add')).toEqual([
      { action: 'passkey_add', entity: 'user', entity_id: person.user.id, actor_id: person.user.id, changes: { passkey: [null, 'Work laptop'] } },
    ]);
    const logins = await entries(person.user.id, 'login');
    expect(logins.at(-1)).toMatchObject({ entity: 'session', actor_id: person.user.id, changes: { method: [null, 'passkey'] } });
  });

  it('keeps every person to their own passkeys', async () => {
    const other = await signedIn('staff');
    const { passkey } = await registered(other, 'Theirs');
    const mine = await registered(person, 'Mine');
    expect((await listOf(person)).map((p) => p.name)).toEqual(['Mine']);

    await expectError(await api(`auth/passkeys/${passkey.id}`, { method: 'PATCH', token: person.token, json: { name: 'Stolen' } }), 404);
    await expectError(await api(`auth/passkeys/${passkey.id}`, { method: 'DELETE', token: person.token }), 404);
    expect(await listOf(other)).toEqual([passkey]);
    expect(await entries(other.user.id, 'passkey_remove')).toEqual([]);

    const renamed = await readJson<Passkey>(await api(`auth/passkeys/${mine.passkey.id}`, { method: 'PATCH', token: person.token, json: { name: 'Phone' } }));
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toEqual({ ...mine.passkey, name: 'Phone' });
    expect(await entries(person.user.id, 'update')).toContainEqual(expect.objectContaining({ entity: 'user', changes: { passkey: ['Mine', 'Phone'] } }));
  });

  it('removes a passkey, which then signs nobody in', async () => {
    const { authenticator, passkey } = await registered(person);
    const res = await api(`auth/passkeys/${passkey.id}`, { method: 'DELETE', token: person.token });
    expect(res.status).toBe(204);
    expect(await listOf(person)).toEqual([]);
    expect(await entries(person.user.id, 'passkey_remove')).toEqual([
      { action: 'passkey_remove', entity: 'user', entity_id: person.user.id, actor_id: person.user.id, changes: { passkey: ['Work laptop', null] } },
    ]);
    await expectError(await signIn(authenticator), 401);
    await expectError(await api(`auth/passkeys/${passkey.id}`, { method: 'DELETE', token: person.token }), 404);
  });

  it('asks for a signed-in person to list, add, rename and remove', async () => {
    await expectError(await post('auth/passkeys/register-options'), 401);
    await expectError(await api('auth/passkeys'), 401);
    await expectError(await post('auth/passkeys', { name: 'x', response: {} }), 401);
    await expectError(await api('auth/passkeys/1', { method: 'PATCH', json: { name: 'x' } }), 401);
    await expectError(await api('auth/passkeys/1', { method: 'DELETE' }), 401);
  });

  it('takes an RS256 key (Windows Hello) as well, and refuses its signature made by another key', async () => {
    const authenticator = await Authenticator.create('RS256');
    const res = await add(person, authenticator);
    expect(res.status, await res.clone().text()).toBe(201);
    expect((await signIn(authenticator)).status).toBe(200);
    expect((await expectError(await signIn(authenticator, { otherKey: true }), 401)).message).toMatch(/signature does not match/);
  });

  it('refuses a key type it does not take (EdDSA), naming the ones it does', async () => {
    const body = await expectError(await add(person, await Authenticator.create('EdDSA')), 400);
    expect(body.message).toBe('The passkey uses a key type this app does not accept (ES256 or RS256)');
    expect(await listOf(person)).toEqual([]);
  });

  it('keeps signing in after an admin resets the password, which ends the older sessions', async () => {
    const { authenticator } = await registered(person);
    const admin = await signedIn('admin');
    const reset = await api('users', { method: 'PATCH', token: admin.token, json: { id: person.user.id, password: 'a brand new passphrase' } });
    expect(reset.status, await reset.clone().text()).toBe(200);
    await expectError(await api('auth/passkeys', { token: person.token }), 401);
    const login = await readJson<LoginResponse>(await signIn(authenticator));
    expect(login.status, login.text).toBe(200);
    expect((await api('auth/passkeys', { token: login.body.token })).status).toBe(200);
  });

  it.each(['x', 'y'] as const)('signs in with a key whose %s starts with a zero byte', async (coordinate) => {
    const authenticator = await Authenticator.withLeadingZero(coordinate);
    expect((await add(person, authenticator)).status).toBe(201);
    const login = await readJson<LoginResponse>(await signIn(authenticator));
    expect(login.status, login.text).toBe(200);
  });

  it('refuses the same credential twice with 409', async () => {
    const { authenticator } = await registered(person);
    const again = await readJson<{ detail: string }>(await add(person, authenticator));
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe('This passkey is already registered');
  });
});

describe('registration refused', () => {
  const refusedWith = async (spoil: Spoil, message: RegExp) => {
    const res = await add(person, await Authenticator.create(), spoil);
    const body = await expectError(res, 400);
    expect(body.message).toMatch(message);
    expect(await listOf(person)).toEqual([]);
  };

  it('from another origin', () => refusedWith({ origin: 'https://evil.test' }, /another origin than https:\/\/app\.test/));
  it('for another RP ID', () => refusedWith({ rpId: 'evil.test' }, /not for app\.test/));
  it('for a sign-in ceremony', () => refusedWith({ type: 'webauthn.get' }, /another ceremony/));
  it('without a person present', () => refusedWith({ userPresent: false }, /present/));
  it('for a challenge the provider never gave', () => refusedWith({ challenge: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }, /expired or was already used/));

  it("for another person's challenge", async () => {
    const other = await signedIn('staff');
    const options = await registerOptions(other);
    const res = await post('auth/passkeys', { name: 'Mine', response: await (await Authenticator.create()).register(options) }, person.token);
    expect((await expectError(res, 400)).message).toMatch(/expired or was already used/);
  });

  it('for an expired challenge', async () => {
    const options = await registerOptions(person);
    await env.DB.prepare('UPDATE passkey_challenges SET expires_at = unixepoch() - 1 WHERE challenge = ?1').bind(options.challenge).run();
    const res = await post('auth/passkeys', { name: 'Late', response: await (await Authenticator.create()).register(options) }, person.token);
    expect((await expectError(res, 400)).message).toMatch(/expired/);
  });

  it('for a challenge already answered, even by two requests at once', async () => {
    const options = await registerOptions(person);
    const answers = await Promise.all([Authenticator.create(), Authenticator.create()].map(async (made) => (await made).register(options)));
    const results = await Promise.all(answers.map((response, i) => post('auth/passkeys', { name: `Key ${i}`, response }, person.token)));
    expect(results.map((res) => res.status).sort()).toEqual([201, 400]);
    expect(await listOf(person)).toHaveLength(1);
    expect(await entries(person.user.id, 'passkey_add')).toHaveLength(1);
  });
});

describe('sign-in refused', () => {
  let authenticator: Authenticator;
  beforeEach(async () => {
    ({ authenticator } = await registered(person));
  });

  const refusedWith = async (spoil: Spoil, message: RegExp) => {
    const body = await expectError(await signIn(authenticator, spoil), 401);
    expect(body.message).toMatch(message);
  };

  it('from another origin', () => refusedWith({ origin: 'https://evil.test' }, /another origin/));
  it('for another RP ID', () => refusedWith({ rpId: 'evil.test' }, /not for app\.test/));
  it('signed by another key', () => refusedWith({ otherKey: true }, /signature does not match/));
  it('for another user handle', () => refusedWith({ userHandle: handleOf(person.user.id + 1000) }, /another account/));
  it('without a user handle', () => refusedWith({ userHandle: null }, /another account/));
  it('for a challenge the provider never gave', () => refusedWith({ challenge: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }, /expired or was already used/));

  it('for a counter that goes backwards', async () => {
    expect((await signIn(authenticator, { counter: 5 })).status).toBe(200);
    await refusedWith({ counter: 5 }, /counter went backwards/);
    await refusedWith({ counter: 3 }, /counter went backwards/);
    expect((await signIn(authenticator, { counter: 6 })).status).toBe(200);
  });

  it('for an expired challenge', async () => {
    const options = await loginOptions();
    await env.DB.prepare('UPDATE passkey_challenges SET expires_at = unixepoch() - 1 WHERE challenge = ?1').bind(options.challenge).run();
    const res = await post('auth/passkeys/login', { response: await authenticator.signIn(options), audience: env.APP_AUDIENCE });
    expect((await expectError(res, 401)).message).toMatch(/expired/);
  });

  it('for a challenge answered twice, even at once', async () => {
    // Counter 0 is an authenticator that keeps none (as many platform passkeys do): only the
    // challenge being used up stops the replay.
    const body = { response: await authenticator.signIn(await loginOptions(), { counter: 0 }), audience: env.APP_AUDIENCE };
    const results = await Promise.all([post('auth/passkeys/login', body), post('auth/passkeys/login', body)]);
    expect(results.map((res) => res.status).sort()).toEqual([200, 401]);
    await expectError(await post('auth/passkeys/login', body), 401);
  });

  it('for a challenge answered wrongly once', async () => {
    const options = await loginOptions();
    await expectError(await post('auth/passkeys/login', { response: await authenticator.signIn(options, { otherKey: true }), audience: env.APP_AUDIENCE }), 401);
    const res = await post('auth/passkeys/login', { response: await authenticator.signIn(options), audience: env.APP_AUDIENCE });
    expect((await expectError(res, 401)).message).toMatch(/expired or was already used/);
  });

  it('for a deactivated account', async () => {
    await env.DB.prepare('UPDATE users SET is_active = 0 WHERE id = ?1').bind(person.user.id).run();
    await refusedWith({}, /cannot sign in/);
    const failed = await entries(person.user.id, 'login_failed');
    expect(failed.at(-1)).toMatchObject({ entity: 'session', actor_id: null, changes: { method: [null, 'passkey'] } });
  });

  it('for another audience', async () => {
    const res = await post('auth/passkeys/login', { response: await authenticator.signIn(await loginOptions()), audience: 'elsewhere' });
    expect((await expectError(res, 401)).message).toBe('Unknown audience');
  });

  it('for a credential nobody registered', async () => {
    await expectError(await signIn(await Authenticator.create()), 401);
  });
});

describe('bad bodies', () => {
  const badAdd = async (json: unknown, message: RegExp) => {
    const body = await expectError(await post('auth/passkeys', json, person.token), 400);
    expect(body.message).toMatch(message);
  };

  it('refuses a registration with no name, a long name, or a broken response', async () => {
    const response = await (await Authenticator.create()).register(await registerOptions(person));
    await badAdd({ response }, /Name is required/);
    await badAdd({ name: '   ', response }, /Name is required/);
    await badAdd({ name: 'x'.repeat(101), response }, /at most 100/);
    await badAdd({ name: 'Key' }, /credential is required/);
    await badAdd({ name: 'Key', response: { ...response, id: 'not base64!' } }, /base64url/);
    await badAdd({ name: 'Key', response: { ...response, type: 'password' } }, /public-key/);
    await badAdd({ name: 'Key', response: { ...response, response: { clientDataJSON: response.response.clientDataJSON } } }, /attestationObject is required/);
    await badAdd({ name: 'Key', response: { ...response, response: { ...response.response, attestationObject: 'AAAA' } } }, /no readable attestation/);
    await badAdd({ name: 'Key', response: { ...response, response: { ...response.response, clientDataJSON: 'AAAA' } } }, /no readable client data/);
    await badAdd({ name: 'Key', response, extra: 1 }, /Unknown field: extra/);
    const raw = await api('auth/passkeys', { method: 'POST', token: person.token, body: 'not json', headers: { 'content-type': 'application/json' } });
    expect((await expectError(raw, 400)).message).toBe('Request body must be valid JSON');
  });

  it('refuses a sign-in without an audience or with a broken response', async () => {
    const { authenticator } = await registered(person);
    const response = await authenticator.signIn(await loginOptions());
    const badLogin = async (json: unknown, message: RegExp) => expect((await expectError(await post('auth/passkeys/login', json), 400)).message).toMatch(message);
    await badLogin({ response }, /Audience is required/);
    await badLogin({ audience: env.APP_AUDIENCE }, /credential is required/);
    await badLogin({ response: { ...response, response: { ...response.response, signature: 'x'.repeat(3000) } }, audience: env.APP_AUDIENCE }, /at most 2048/);
    await badLogin({ response: { ...response, response: { ...response.response, userHandle: 42 } }, audience: env.APP_AUDIENCE }, /userHandle/);
  });

  it('refuses a rename with no name or a bad id', async () => {
    const { passkey } = await registered(person);
    const rename = (id: string, json: unknown) => api(`auth/passkeys/${id}`, { method: 'PATCH', token: person.token, json });
    expect((await expectError(await rename(String(passkey.id), { name: '' }), 400)).message).toMatch(/Name is required/);
    expect((await expectError(await rename(String(passkey.id), {}), 400)).message).toMatch(/Name is required/);
    expect((await expectError(await rename('abc', { name: 'x' }), 400)).message).toMatch(/id must be a positive whole number/);
  });
});

describe('the audit log', () => {
  it("shows a passkey's entries in its owner's history", async () => {
    const admin = await signedIn('admin');
    await registered(person, 'Desk key');
    const { body } = await readJson<Page<AuditEntry>>(await api(`audit?entity=user&entityId=${person.user.id}`, { token: admin.token }));
    expect(body.items.map((entry) => [entry.action, entry.changes])).toContainEqual(['passkey_add', { passkey: [null, 'Desk key'] }]);
  });
});
