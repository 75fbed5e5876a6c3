import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { LoginResponse, Page, User } from '../../src/shared/types';
import {
  api,
  attemptLogin,
  createUser,
  expectConflict,
  expectError,
  login,
  readJson,
  signedIn,
  type TestUser,
} from './support';

const PASSWORD_MATERIAL = /password_?hash|pbkdf2|correct horse battery staple|a new password 1/i;

/** Fails when any object in the body that looks like a user (it has an email) has a password field. */
const expectNoPasswordFields = (value: unknown): void => {
  if (Array.isArray(value)) return value.forEach(expectNoPasswordFields);
  if (value === null || typeof value !== 'object') return;
  if ('email' in value) expect(Object.keys(value).filter((key) => /password/i.test(key))).toEqual([]);
  Object.values(value).forEach(expectNoPasswordFields);
};

/** Every call of this file: the response never carries a hash, a password or a password field. */
const call = async (path: string, init: Parameters<typeof api>[1] = {}) => {
  const res = await api(path, init);
  const text = await res.clone().text();
  expect(text).not.toMatch(PASSWORD_MATERIAL);
  if (res.headers.get('content-type')?.startsWith('application/json')) expectNoPasswordFields(JSON.parse(text));
  return res;
};

const json = async <T>(res: Response, status: number) => {
  const { body } = await readJson<T>(res);
  expect({ status: res.status, body }).toMatchObject({ status });
  return body;
};

const patch = (path: string, token: string, body: unknown) => call(path, { method: 'PATCH', token, json: body });
const post = (path: string, token: string, body: unknown) => call(path, { method: 'POST', token, json: body });

/** A tag unique to one test, so searches see only that test's users. */
const uniqueTag = () => `Tg${crypto.randomUUID().replace(/-/g, '').slice(0, 10)}`;

const newUserBody = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Grace',
  surname: 'Hopper',
  email: `grace-${crypto.randomUUID().slice(0, 8)}@example.com`,
  password: 'a new password 1',
  ...overrides,
});

const expectCanLogin = async (user: Pick<TestUser, 'email' | 'password'>, can: boolean) => {
  expect((await attemptLogin(user)).status).toBe(can ? 200 : 401);
};

describe('GET users', () => {
  it('returns the list envelope with the default page', async () => {
    const { token } = await signedIn();
    const page = await json<Page<User>>(await call('users', { token }), 200);
    expect(page).toMatchObject({ page: 1, pageSize: 25, total: expect.any(Number) });
    expect(page.total).toBeGreaterThanOrEqual(1);
    expect(page.items.length).toBe(Math.min(page.total, 25));
    expect(Object.keys(page.items[0] ?? {})).toEqual(expect.arrayContaining(['id', 'firstName', 'surname', 'email']));
  });

  it('pages through the matches in name order', async () => {
    const { token } = await signedIn();
    const tag = uniqueTag();
    const made = [];
    for (const surname of ['Charlie', 'alpha', 'Bravo']) made.push(await createUser({ surname: `${tag}${surname}` }));
    const page1 = await json<Page<User>>(await call(`users?q=${tag}&pageSize=2`, { token }), 200);
    const page2 = await json<Page<User>>(await call(`users?q=${tag}&pageSize=2&page=2`, { token }), 200);
    expect(page1).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(page2).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect([...page1.items, ...page2.items].map((user) => user.surname)).toEqual([
      `${tag}alpha`,
      `${tag}Bravo`,
      `${tag}Charlie`,
    ]);
    expect(page2.items).toHaveLength(1);
    const page3 = await json<Page<User>>(await call(`users?q=${tag}&pageSize=2&page=3`, { token }), 200);
    expect(page3).toMatchObject({ items: [], total: 3 });
    expect(new Set(made.map((user) => user.id))).toEqual(new Set([...page1.items, ...page2.items].map((u) => u.id)));
  });

  it.each([
    ['first name', (tag: string) => ({ firstName: `${tag}First` }), (tag: string) => `${tag.toLowerCase()}first`],
    ['surname', (tag: string) => ({ surname: `Mc${tag}` }), (tag: string) => `c${tag}`],
    ['email', (tag: string) => ({ email: `${tag}@search.example` }), () => '@search.exam'],
  ])('q matches the %s, case-insensitively', async (_, fields, query) => {
    const { token } = await signedIn();
    const tag = uniqueTag();
    const user = await createUser(fields(tag));
    const page = await json<Page<User>>(await call(`users?q=${encodeURIComponent(query(tag))}`, { token }), 200);
    expect(page.items.map((found) => found.id)).toContain(user.id);
    expect(page.items.every((found) => JSON.stringify(found).toLowerCase().includes(query(tag).toLowerCase()))).toBe(true);
  });

  it.each([
    ['%', '50%off', '50xoff'],
    ['_', 'a_b', 'axb'],
    ['\\', 'back\\slash', 'backXslash'],
  ])('q takes “%s” literally', async (_, literal, lookalike) => {
    const { token } = await signedIn();
    const tag = uniqueTag();
    const wanted = await createUser({ surname: `${tag}${literal}` });
    await createUser({ surname: `${tag}${lookalike}` });
    const page = await json<Page<User>>(await call(`users?q=${encodeURIComponent(`${tag}${literal}`)}`, { token }), 200);
    expect(page.items.map((user) => user.id)).toEqual([wanted.id]);
    expect(page.total).toBe(1);
  });

  it.each([
    ...['0', '-1', '1.5', 'abc'].flatMap((value) => [`page=${value}`, `pageSize=${value}`]),
    'pageSize=201',
  ])('answers 400 to %s', async (query) => {
    const { token } = await signedIn();
    const error = await expectError(await call(`users?${query}`, { token }), 400);
    expect(Object.keys(error.errors ?? {})).toContain(query.split('=')[0]);
  });

  it('accepts pageSize 200', async () => {
    const { token } = await signedIn();
    expect(await json<Page<User>>(await call('users?pageSize=200', { token }), 200)).toMatchObject({ pageSize: 200 });
  });
});

describe('GET users/{id}', () => {
  it('returns the user', async () => {
    const { token } = await signedIn();
    const user = await createUser({ firstName: 'Katherine', surname: 'Johnson' });
    expect(await json<User>(await call(`users/${user.id}`, { token }), 200)).toMatchObject({
      id: user.id,
      firstName: 'Katherine',
      surname: 'Johnson',
      email: user.email,
    });
  });

  it('answers 404 to an unknown id', async () => {
    const { token } = await signedIn();
    await expectError(await call('users/99999999', { token }), 404);
  });

  it.each(['abc', '1.5', '-3', '0'])('answers 400 to the id “%s”', async (id) => {
    const { token } = await signedIn();
    await expectError(await call(`users/${id}`, { token }), 400);
  });
});

describe('POST users', () => {
  it('creates a user who can then sign in', async () => {
    const { token } = await signedIn();
    const body = newUserBody();
    const created = await json<User>(await post('users', token, body), 201);
    expect(created).toMatchObject({ id: expect.any(Number), firstName: 'Grace', surname: 'Hopper', email: body.email });
    expect(await json<User>(await call(`users/${created.id}`, { token }), 200)).toMatchObject({ email: body.email });
    await expectCanLogin(body, true);
  });

  it('answers 409 to an email already in use, in any letter case', async () => {
    const { token, user } = await signedIn();
    const problem = await expectConflict(await post('users', token, newUserBody({ email: user.email.toUpperCase() })));
    expect(problem.detail).toMatch(/email/i);
    expect(problem).toMatchObject({ errors: { email: [problem.detail] } });
  });

  it.each([
    ['no firstName', { firstName: undefined }, 'firstName'],
    ['a blank surname', { surname: '   ' }, 'surname'],
    ['an invalid email', { email: 'not-an-email' }, 'email'],
    ['an empty password', { password: '' }, 'password'],
    ['a 201-character password', { password: 'x'.repeat(201) }, 'password'],
    ['a number firstName', { firstName: 42 }, 'firstName'],
    ['a control character in the surname', { surname: 'Hop\u0007per' }, 'surname'],
    ['a 101-character firstName', { firstName: 'G'.repeat(101) }, 'firstName'],
  ])('answers 400 to %s', async (_, change, field) => {
    const { token } = await signedIn();
    const error = await expectError(await post('users', token, newUserBody(change)), 400);
    expect(Object.keys(error.errors ?? {})).toContain(field);
  });

  it.each([
    ['an unknown field', JSON.stringify({ ...newUserBody(), isAdmin: true })],
    ['an array', '[]'],
    ['malformed JSON', '{"firstName":'],
  ])('answers 400 to %s', async (_, body) => {
    const { token } = await signedIn();
    await expectError(await call('users', { method: 'POST', token, body, headers: { 'content-type': 'application/json' } }), 400);
  });

  // Whatever password rules apply, creating a user and signing in must agree on them.
  it.each([
    ['a tab', 'tab\there'],
    ['a newline', 'new\nline'],
  ])('never creates a user whose password (with %s) cannot sign in', async (_, password) => {
    const { token } = await signedIn();
    const body = newUserBody({ password });
    const res = await post('users', token, body);
    if (res.status === 400) return;
    expect(res.status).toBe(201);
    expect((await attemptLogin(body)).status).toBe(200);
  });
});

describe('PATCH users', () => {
  it('changes only the given fields', async () => {
    const { token } = await signedIn();
    const user = await createUser({ firstName: 'Old', surname: 'Name' });
    const updated = await json<User>(await patch('users', token, { id: user.id, firstName: 'New' }), 200);
    expect(updated).toMatchObject({ id: user.id, firstName: 'New', surname: 'Name', email: user.email, isActive: true });
    expect(await json<User>(await call(`users/${user.id}`, { token }), 200)).toMatchObject({ firstName: 'New', surname: 'Name' });
  });

  it('deactivates a user: no more sign-in, and their token stops working', async () => {
    const { token } = await signedIn();
    const target = await createUser();
    const targetToken = await login(target);
    expect(await json<User>(await patch('users', token, { id: target.id, isActive: false }), 200)).toMatchObject({
      isActive: false,
    });
    await expectCanLogin(target, false);
    await expectError(await call('users', { token: targetToken }), 401);

    await json<User>(await patch('users', token, { id: target.id, isActive: true }), 200);
    await expectCanLogin(target, true);
  });

  it('answers 404 to an unknown id', async () => {
    const { token } = await signedIn();
    await expectError(await patch('users', token, { id: 99999999, firstName: 'Nobody' }), 404);
  });

  it('answers 409 to an email another user has', async () => {
    const { token } = await signedIn();
    const [a, b] = [await createUser(), await createUser()];
    await expectConflict(await patch('users', token, { id: a.id, email: b.email.toUpperCase() }));
    expect(await json<User>(await call(`users/${a.id}`, { token }), 200)).toMatchObject({ email: a.email });
  });

  it('answers 400 to deactivating yourself, and you stay active', async () => {
    const { token, user } = await signedIn();
    await expectError(await patch('users', token, { id: user.id, isActive: false }), 400);
    expect((await call('users', { token })).status).toBe(200);
  });

  it.each([
    ['no id', () => ({ firstName: 'X' })],
    ['a string id', (id: number) => ({ id: String(id), firstName: 'X' })],
    ['a string isActive', (id: number) => ({ id, isActive: 'no' })],
    ['an invalid email', (id: number) => ({ id, email: 'nope' })],
    ['a blank firstName', (id: number) => ({ id, firstName: '' })],
    ['an unknown field', (id: number) => ({ id, isAdmin: true })],
    ['an unknown role', (id: number) => ({ id, role: 'root' })],
    ['an empty password', (id: number) => ({ id, password: '' })],
  ])('answers 400 to %s and changes nothing', async (_, body) => {
    const { token } = await signedIn();
    const target = await createUser();
    await expectError(await patch('users', token, body(target.id)), 400);
    expect(await json<User>(await call(`users/${target.id}`, { token }), 200)).toMatchObject({
      firstName: target.firstName,
      email: target.email,
      isActive: true,
    });
  });
});

describe('PATCH users/profile', () => {
  it('updates your own profile', async () => {
    const { token, user } = await signedIn();
    const email = `renamed-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const profile = { id: user.id, firstName: 'Mary', surname: 'Jackson', email };
    expect(await json<User>(await patch('users/profile', token, profile), 200)).toMatchObject(profile);
    expect(await json<User>(await call(`users/${user.id}`, { token }), 200)).toMatchObject(profile);
  });

  it('keeps the person’s time zone: UTC until chosen, answered at sign-in, audited, an unknown zone refused', async () => {
    const { token, user } = await signedIn();
    expect(await json<User>(await call(`users/${user.id}`, { token }), 200)).toMatchObject({ timeZone: 'UTC' });
    const profile = { id: user.id, firstName: user.firstName, surname: user.surname, email: user.email };
    expect(await json<User>(await patch('users/profile', token, { ...profile, timeZone: 'Australia/Sydney' }), 200)).toMatchObject({ timeZone: 'Australia/Sydney' });
    // A form that sends no zone leaves the chosen one alone.
    expect(await json<User>(await patch('users/profile', token, { ...profile, firstName: 'Zoned' }), 200)).toMatchObject({ timeZone: 'Australia/Sydney' });
    const entries = await env.DB.prepare("SELECT changes FROM audit_log WHERE entity = 'user' AND entity_id = ?1 AND action = 'update' ORDER BY id").bind(user.id).all<{ changes: string }>();
    expect(JSON.parse(entries.results[0]?.changes ?? '{}')).toEqual({ timeZone: ['UTC', 'Australia/Sydney'] });
    for (const timeZone of ['Mars/Olympus', 'x'.repeat(200), '']) {
      const refused = await expectError(await patch('users/profile', token, { ...profile, timeZone }), 400);
      expect(refused.errors?.timeZone).toEqual(['Must be a time zone such as Europe/London']);
    }
    expect(await json<User>(await call(`users/${user.id}`, { token }), 200)).toMatchObject({ timeZone: 'Australia/Sydney' });
    expect(await json<LoginResponse>(await attemptLogin(user), 200)).toMatchObject({ userId: user.id, timeZone: 'Australia/Sydney' });
  });

  it('answers 403 to another user’s id and changes nothing', async () => {
    const { token } = await signedIn();
    const other = await createUser();
    const res = await patch('users/profile', token, { id: other.id, firstName: 'Hacked', surname: 'X', email: other.email });
    await expectError(res, 403);
    expect(await json<User>(await call(`users/${other.id}`, { token }), 200)).toMatchObject({ firstName: other.firstName });
  });

  it('answers 409 with a detail when the email is taken', async () => {
    const { token, user } = await signedIn();
    const other = await createUser();
    const problem = await expectConflict(
      await patch('users/profile', token, { id: user.id, firstName: 'A', surname: 'B', email: other.email }),
    );
    expect(problem.detail).toMatch(/email/i);
  });

  it('answers 400 with “Required” for each missing or empty field', async () => {
    const { token, user } = await signedIn();
    const error = await expectError(await patch('users/profile', token, { id: user.id, firstName: '' }), 400);
    expect(error.errors).toMatchObject({
      firstName: expect.arrayContaining(['Required']),
      surname: expect.arrayContaining(['Required']),
      email: expect.arrayContaining(['Required']),
    });
  });

  it('answers 400 with “Required” to an invalid email', async () => {
    const { token, user } = await signedIn();
    const res = await patch('users/profile', token, { id: user.id, firstName: 'A', surname: 'B', email: 'nope' });
    expect((await expectError(res, 400)).errors?.email).toEqual(['Required']);
  });
});

describe('PATCH users/change-password', () => {
  it('changes your own password: the new one signs in, the old one does not', async () => {
    const { token, user } = await signedIn();
    const newPassword = 'a brand new password';
    const res = await patch('users/change-password', token, { id: user.id, newPassword, confirmPassword: newPassword });
    expect(res.status).toBe(200);
    await expectCanLogin({ ...user, password: newPassword }, true);
    await expectCanLogin(user, false);
  });

  it('answers 400 “Passwords do not match” when the confirmation differs', async () => {
    const { token, user } = await signedIn();
    const res = await patch('users/change-password', token, { id: user.id, newPassword: 'one', confirmPassword: 'two' });
    const error = await expectError(res, 400);
    expect(error.message).toContain('Passwords do not match');
    expect(error.errors?.confirmPassword).toContain('Passwords do not match');
    await expectCanLogin(user, true);
  });

  it('answers 403 to another user’s id and leaves their password alone', async () => {
    const { token } = await signedIn();
    const other = await createUser();
    const res = await patch('users/change-password', token, { id: other.id, newPassword: 'taken', confirmPassword: 'taken' });
    await expectError(res, 403);
    await expectCanLogin(other, true);
  });

  // The same agreement as for POST users: a password that is accepted here must sign in.
  it('never sets a password (with a tab) that cannot sign in', async () => {
    const { token, user } = await signedIn();
    const newPassword = 'tab\there';
    const res = await patch('users/change-password', token, { id: user.id, newPassword, confirmPassword: newPassword });
    if (res.status === 400) return expectCanLogin(user, true);
    expect(res.status).toBe(200);
    await expectCanLogin({ ...user, password: newPassword }, true);
  });

  it('answers 400 “Required” to an empty new password', async () => {
    const { token, user } = await signedIn();
    const res = await patch('users/change-password', token, { id: user.id, newPassword: '', confirmPassword: '' });
    const error = await expectError(res, 400);
    expect(error.errors?.newPassword).toContain('Required');
    await expectCanLogin(user, true);
  });
});

describe('without a token', () => {
  it.each([
    ['GET', 'users'],
    ['GET', 'users/1'],
    ['POST', 'users'],
    ['PATCH', 'users'],
    ['PATCH', 'users/profile'],
    ['PATCH', 'users/change-password'],
  ])('%s %s answers 401', async (method, path) => {
    await expectError(await call(path, { method, json: method === 'GET' ? undefined : {} }), 401);
  });
});
