import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiToken, CreatedApiToken, Ticket } from '../../src/shared/types';
import { countD1Calls } from './d1-limits';
import { api, expectError, login, readJson, signedIn, type TestUser } from './support';

// Personal API tokens (docs/api.md#api-tokens): made by a signed-in person, shown once, and
// then accepted as `Authorization: Bearer sat_…` in place of a session, as that person.

interface Person {
  user: TestUser;
  token: string;
}

let person: Person;
let admin: Person;

const create = (who: Person, json: unknown) => api('auth/api-tokens', { method: 'POST', token: who.token, json });

const made = async (who: Person, access: 'read' | 'write' = 'read', name = 'Nightly export', expiresInDays = 30) => {
  const { status, body, text } = await readJson<CreatedApiToken>(await create(who, { name, expiresInDays, access }));
  expect(status, text).toBe(201);
  return body;
};

const listOf = async (token: string, query = '') => {
  const { status, body, text } = await readJson<{ items: ApiToken[] }>(await api(`auth/api-tokens${query}`, { token }));
  expect(status, text).toBe(200);
  return body.items;
};

const entries = async (userId: number, action: string) =>
  (
    await env.DB.prepare('SELECT actor_id, entity, entity_id, changes FROM audit_log WHERE entity_id = ?1 AND action = ?2 ORDER BY id')
      .bind(userId, action)
      .all<{ actor_id: number | null; entity: string; entity_id: number; changes: string }>()
  ).results.map((row) => ({ ...row, changes: JSON.parse(row.changes) as Record<string, unknown> }));

const newTicket = { title: 'From a script' };

beforeEach(async () => {
  person = await signedIn('staff');
  admin = await signedIn('admin');
});

afterEach(() => {
  vi.useRealTimers();
});

describe('making and listing tokens', () => {
  it('answers the token once, stores only its SHA-256, lists it without the token, and records token_add', async () => {
    const created = await made(person, 'read', '  Nightly export  ');
    expect(created.token).toMatch(/^sat_[A-Za-z0-9_-]{43}$/);
    expect(Object.keys(created).sort()).toEqual(['access', 'createdAt', 'expiresAt', 'id', 'lastUsedAt', 'name', 'token']);
    expect(created).toMatchObject({ name: 'Nightly export', access: 'read', lastUsedAt: null });
    expect(Date.parse(created.expiresAt) - Date.parse(created.createdAt)).toBe(30 * 86_400_000);

    const { token, ...listed } = created;
    expect(await listOf(person.token)).toEqual([listed]);
    const stored = await env.DB.prepare('SELECT token_hash FROM api_tokens WHERE id = ?1').bind(created.id).first<string>('token_hash');
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)));
    expect(stored).toBe(Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join(''));
    expect(JSON.stringify(await env.DB.prepare('SELECT * FROM api_tokens').all())).not.toContain(token);

    expect(await entries(person.user.id, 'token_add')).toEqual([
      { actor_id: person.user.id, entity: 'user', entity_id: person.user.id, changes: { token: [null, 'Nightly export'], access: [null, 'read'] } },
    ]);
    // Someone else's list does not hold it.
    expect(await listOf(admin.token)).toEqual([]);
  });

  it.each([
    [{ name: '', expiresInDays: 30, access: 'read' }, 'name'],
    [{ name: '   ', expiresInDays: 30, access: 'read' }, 'name'],
    [{ name: 'x'.repeat(101), expiresInDays: 30, access: 'read' }, 'name'],
    [{ expiresInDays: 30, access: 'read' }, 'name'],
    [{ name: 'CI', expiresInDays: 0, access: 'read' }, 'expiresInDays'],
    [{ name: 'CI', expiresInDays: 366, access: 'read' }, 'expiresInDays'],
    [{ name: 'CI', expiresInDays: 'x', access: 'read' }, 'expiresInDays'],
    [{ name: 'CI', expiresInDays: '30', access: 'read' }, 'expiresInDays'],
    [{ name: 'CI', expiresInDays: 1.5, access: 'read' }, 'expiresInDays'],
    [{ name: 'CI', access: 'read' }, 'expiresInDays'],
    [{ name: 'CI', expiresInDays: 30, access: 'admin' }, 'access'],
    [{ name: 'CI', expiresInDays: 30 }, 'access'],
  ])('refuses %j with 400 naming %s', async (json, field) => {
    const res = await create(person, json);
    const body = await expectError(res, 400);
    expect(Object.keys(body.errors ?? {})).toContain(field);
    expect(await listOf(person.token)).toEqual([]);
  });

  it('takes the bounds themselves: 1 and 365 days', async () => {
    const day = await made(person, 'read', 'Day', 1);
    const year = await made(person, 'write', 'Year', 365);
    expect(Date.parse(day.expiresAt) - Date.parse(day.createdAt)).toBe(86_400_000);
    expect(Date.parse(year.expiresAt) - Date.parse(year.createdAt)).toBe(365 * 86_400_000);
  });

  it('shows admins everyone’s tokens with their owners, and nobody else', async () => {
    const mine = await made(person);
    const theirs = await made(admin, 'write', 'Admin script');
    const all = await listOf(admin.token, '?all=true');
    expect(all).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: mine.id, owner: { id: person.user.id, firstName: person.user.firstName, surname: person.user.surname, email: person.user.email } }),
        expect.objectContaining({ id: theirs.id, owner: expect.objectContaining({ id: admin.user.id }) }),
      ]),
    );
    expect(all.every((token) => !('token' in token))).toBe(true);
    const refused = await expectError(await api('auth/api-tokens?all=true', { token: person.token }), 403);
    expect(refused.message).toMatch(/admin/);
    await expectError(await api('auth/api-tokens?all=maybe', { token: admin.token }), 400);
  });
});

describe('calling the API with a token', () => {
  it('reads as its person with a read token, and refuses every write with 403', async () => {
    const { token } = await made(person, 'read');
    const { status, body } = await readJson<{ id: number; email: string }>(await api(`users/${person.user.id}`, { token }));
    expect(status).toBe(200);
    expect(body.email).toBe(person.user.email);

    const writes = [
      api('tickets', { method: 'POST', token, json: newTicket }),
      api('users/profile', { method: 'PATCH', token, json: { id: person.user.id, firstName: 'New', surname: 'Name', email: person.user.email } }),
      api('attachments/1', { method: 'DELETE', token }),
    ];
    for (const res of await Promise.all(writes)) expect((await expectError(res, 403)).message).toBe('This API token may only read');
    expect(await env.DB.prepare("SELECT count(*) AS n FROM tickets WHERE title = 'From a script'").first('n')).toBe(0);
  });

  it('writes as its person with a write token: the audit entry’s actor is the person, and the role still applies', async () => {
    const { token } = await made(person, 'write');
    const { status, body, text } = await readJson<Ticket>(await api('tickets', { method: 'POST', token, json: newTicket, headers: { 'x-request-id': 'token-write' } }));
    expect(status, text).toBe(201);
    const entry = await env.DB.prepare("SELECT actor_id FROM audit_log WHERE entity = 'ticket' AND entity_id = ?1 AND action = 'create'").bind(body.id).first('actor_id');
    expect(entry).toBe(person.user.id);
    // A staff member's token cannot do what staff cannot.
    const refused = await expectError(await api('users', { method: 'POST', token, json: { firstName: 'A', surname: 'B', email: 'ab@example.com', password: 'x' } }), 403);
    expect(refused.message).toMatch(/admin role/);
  });

  it('cannot sign out, make or remove tokens, use passkeys, open the live channel or change the password', async () => {
    const { token, id } = await made(person, 'write');
    const calls = [
      api('auth/api-tokens', { method: 'POST', token, json: { name: 'Child', expiresInDays: 365, access: 'write' } }),
      api('auth/api-tokens', { token }),
      api(`auth/api-tokens/${id}`, { method: 'DELETE', token }),
      api('auth/logout', { method: 'POST', token }),
      api('auth/passkeys/register-options', { method: 'POST', token }),
      api('live/ticket', { method: 'POST', token }),
      api('users/change-password', { method: 'PATCH', token, json: { id: person.user.id, newPassword: 'a new long passphrase 42', confirmPassword: 'a new long passphrase 42' } }),
    ];
    for (const res of await Promise.all(calls)) expect((await expectError(res, 403)).message).toBe('API tokens cannot make this call; sign in instead');
    expect(await listOf(person.token)).toHaveLength(1);
  });

  it('refuses an unknown, malformed, expired or deleted token with 401', async () => {
    const created = await made(person, 'write');
    for (const token of ['sat_', `sat_${'A'.repeat(43)}`, `${created.token}x`, `sat_${created.token.slice(4, 46)}!`]) {
      await expectError(await api('tickets', { token }), 401);
    }
    await env.DB.prepare("UPDATE api_tokens SET expires_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 second') WHERE id = ?1").bind(created.id).run();
    expect((await expectError(await api('tickets', { token: created.token }), 401)).message).toBe('Invalid or expired token');
    // Still listed, so its person sees it ran out and can remove it.
    expect((await listOf(person.token)).map((t) => t.id)).toEqual([created.id]);

    const other = await made(person, 'read');
    expect((await api('tickets', { token: other.token })).status).toBe(200);
    expect((await api(`auth/api-tokens/${other.id}`, { method: 'DELETE', token: person.token })).status).toBe(204);
    await expectError(await api('tickets', { token: other.token }), 401);
    expect(await entries(person.user.id, 'token_remove')).toEqual([
      { actor_id: person.user.id, entity: 'user', entity_id: person.user.id, changes: { token: ['Nightly export', null], access: ['read', null] } },
    ]);
  });
});

describe('changes to the person end their tokens', () => {
  const editUser = (json: Record<string, unknown>) => api('users', { method: 'PATCH', token: admin.token, json: { id: person.user.id, ...json } });

  it.each([
    ['deactivation', { isActive: false }],
    ['a role change', { role: 'billing' }],
    ['an admin’s password reset', { password: 'a brand new passphrase 42' }],
  ])('%s', async (_, changes) => {
    const { token } = await made(person, 'write');
    expect((await api('tickets', { token })).status).toBe(200);
    expect((await editUser(changes)).status).toBe(200);
    await expectError(await api('tickets', { token }), 401);
    if ('isActive' in changes) expect((await editUser({ isActive: true })).status).toBe(200);
    // Gone from every list too; reactivating does not bring it back.
    await expectError(await api('tickets', { token }), 401);
    expect((await listOf(admin.token, '?all=true')).filter((t) => t.owner?.id === person.user.id)).toEqual([]);
  });

  it('the person’s own password change', async () => {
    const { token } = await made(person, 'read');
    const newPassword = 'another long passphrase 7';
    const res = await api('users/change-password', { method: 'PATCH', token: person.token, json: { id: person.user.id, newPassword, confirmPassword: newPassword } });
    expect(res.status).toBe(200);
    await expectError(await api('tickets', { token }), 401);
    // A token made after the change works.
    const fresh = await made({ user: person.user, token: await login({ email: person.user.email, password: newPassword }) }, 'read');
    expect((await api('tickets', { token: fresh.token })).status).toBe(200);
  });
});

describe('removing tokens', () => {
  it('lets nobody but an admin remove another person’s token; an admin’s removal is recorded with the admin as actor', async () => {
    const other = await signedIn('billing');
    const theirs = await made(other, 'read', 'Billing export');
    await expectError(await api(`auth/api-tokens/${theirs.id}`, { method: 'DELETE', token: person.token }), 404);
    expect((await api('tickets', { token: theirs.token })).status).toBe(200);
    expect(await entries(other.user.id, 'token_remove')).toEqual([]);

    expect((await api(`auth/api-tokens/${theirs.id}`, { method: 'DELETE', token: admin.token })).status).toBe(204);
    await expectError(await api('tickets', { token: theirs.token }), 401);
    expect(await entries(other.user.id, 'token_remove')).toEqual([
      { actor_id: admin.user.id, entity: 'user', entity_id: other.user.id, changes: { token: ['Billing export', null], access: ['read', null] } },
    ]);
    await expectError(await api(`auth/api-tokens/${theirs.id}`, { method: 'DELETE', token: admin.token }), 404);
    await expectError(await api('auth/api-tokens/abc', { method: 'DELETE', token: admin.token }), 400);
  });
});

describe('lastUsedAt', () => {
  it('is kept to the minute and written at most once a minute, with no D1 call for it otherwise', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    // The next whole minute: never before the session token's issue time.
    const start = (Math.floor(Date.now() / 60_000) + 1) * 60_000;
    vi.setSystemTime(start + 5_000);
    const { id, token } = await made(person, 'read');
    const lastUsed = () => env.DB.prepare('SELECT last_used_at FROM api_tokens WHERE id = ?1').bind(id).first<string | null>('last_used_at');
    const call = () => countD1Calls(async () => expect((await api('notifications', { token })).status).toBe(200));

    const first = await call();
    expect(await lastUsed()).toBe(new Date(start).toISOString());
    vi.setSystemTime(start + 50_000);
    const again = await call();
    // The same minute: the lookup alone, no UPDATE.
    expect(again.calls).toBe(first.calls - 1);
    expect(await lastUsed()).toBe(new Date(start).toISOString());

    vi.setSystemTime(start + 65_000);
    const next = await call();
    expect(next.calls).toBe(first.calls);
    expect(await lastUsed()).toBe(new Date(start + 60_000).toISOString());
    expect((await listOf(person.token))[0]?.lastUsedAt).toBe(new Date(start + 60_000).toISOString());
  });
});
