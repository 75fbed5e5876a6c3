import { env } from 'cloudflare:test';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/shared/types';
import { NO_ACTOR } from '../../src/worker/provider/db/audit';
import { DATA_TABLES } from '../../src/worker/provider/db/tables';
import { updateUser } from '../../src/worker/provider/db/users';
import { Conflict } from '../../src/worker/provider/errors/domain';
import { api, attemptLogin, createUser, decodeJwt, expectConflict, expectError, freshIp, login, readJson, signedIn, type TestUser } from './support';

const ROLES: Role[] = ['staff', 'billing', 'admin'];
const tokens = {} as Record<Role, string>;
let adminToken: string;

const post = (path: string, json: unknown, token = adminToken) => api(path, { method: 'POST', token, json });
const created = async (res: Response) => {
  const { status, body } = await readJson<{ id: number }>(res);
  expect(status, JSON.stringify(body)).toBe(201);
  return body.id;
};

let periods = 0;
/** A month no other test bills, with one approved GIFS line, ready for a statement. */
const billablePeriod = async () => {
  periods += 1;
  const period = `${2060 + Math.floor(periods / 12)}-${String((periods % 12) + 1).padStart(2, '0')}`;
  await created(await post('invoices/gifs-sla/lines', { period, description: 'SLA', quantity: 1, unitPriceCents: 100, status: 'approved' }));
  return period;
};

interface Call {
  method: string;
  path: string;
  json?: unknown;
}

/** Every mutating route, with a fresh target made by an admin, and the roles allowed to call it. */
const ROUTES: [string, Role[], (caller: TestUser) => Promise<Call>][] = [
  ['POST users', ['admin'], async () => ({ method: 'POST', path: 'users', json: { firstName: 'N', surname: 'U', email: `n-${crypto.randomUUID()}@example.com`, password: 'a password' } })],
  ['PATCH users (edit)', ['admin'], async () => ({ method: 'PATCH', path: 'users', json: { id: (await createUser()).id, firstName: 'Edited' } })],
  ['PATCH users (role)', ['admin'], async () => ({ method: 'PATCH', path: 'users', json: { id: (await createUser()).id, role: 'billing' } })],
  ['PATCH users (deactivate)', ['admin'], async () => ({ method: 'PATCH', path: 'users', json: { id: (await createUser()).id, isActive: false } })],
  ['PATCH users (reset password)', ['admin'], async () => ({ method: 'PATCH', path: 'users', json: { id: (await createUser()).id, password: 'a new one' } })],
  ['PATCH users/profile', ROLES, async (me) => ({ method: 'PATCH', path: 'users/profile', json: { id: me.id, firstName: 'Me', surname: me.surname, email: me.email } })],
  ['POST settings/backup-db', ROLES, async () => ({ method: 'POST', path: 'settings/backup-db' })],
  ['POST companies', ['admin'], async () => ({ method: 'POST', path: 'companies', json: { name: `Co ${crypto.randomUUID()}` } })],
  ['PATCH companies/{id}', ['admin'], async () => ({ method: 'PATCH', path: `companies/${await created(await post('companies', { name: `Co ${crypto.randomUUID()}` }))}`, json: { code: 'X' } })],
  ['DELETE companies/{id}', ['admin'], async () => ({ method: 'DELETE', path: `companies/${await created(await post('companies', { name: `Co ${crypto.randomUUID()}` }))}` })],
  ['POST ticket-categories', ['admin'], async () => ({ method: 'POST', path: 'ticket-categories', json: { name: `Cat ${crypto.randomUUID()}` } })],
  ['PATCH ticket-categories/{id}', ['admin'], async () => ({ method: 'PATCH', path: `ticket-categories/${await created(await post('ticket-categories', { name: `Cat ${crypto.randomUUID()}` }))}`, json: { description: 'd' } })],
  ['DELETE ticket-categories/{id}', ['admin'], async () => ({ method: 'DELETE', path: `ticket-categories/${await created(await post('ticket-categories', { name: `Cat ${crypto.randomUUID()}` }))}` })],
  ['POST tickets', ROLES, async () => ({ method: 'POST', path: 'tickets', json: { title: 'New' } })],
  ['PATCH tickets/{id}', ROLES, async () => ({ method: 'PATCH', path: `tickets/${await created(await post('tickets', { title: 'T' }))}`, json: { status: 'closed' } })],
  ['POST tickets/{id}/comments', ROLES, async () => ({ method: 'POST', path: `tickets/${await created(await post('tickets', { title: 'T' }))}/comments`, json: { body: 'Hi' } })],
  ['POST tickets/{id}/time-entries', ROLES, async () => ({ method: 'POST', path: `tickets/${await created(await post('tickets', { title: 'T' }))}/time-entries`, json: { workDate: '2026-01-05', minutes: 15 } })],
  ['POST invoices/{source}/lines', ['billing', 'admin'], async () => ({ method: 'POST', path: 'invoices/autofi/lines', json: { period: '2026-01', description: 'L', quantity: 1, unitPriceCents: 5 } })],
  ['PATCH invoices/lines/{id}', ['billing', 'admin'], async () => ({ method: 'PATCH', path: `invoices/lines/${await created(await post('invoices/autofi/lines', { period: '2026-01', description: 'L', quantity: 1, unitPriceCents: 5 }))}`, json: { quantity: 4 } })],
  ['POST invoices/gifs/statements', ['billing', 'admin'], async () => ({ method: 'POST', path: 'invoices/gifs/statements', json: { period: await billablePeriod() } })],
  ['PATCH invoices/gifs/statements/{id} (issue)', ['billing', 'admin'], async () => ({ method: 'PATCH', path: `invoices/gifs/statements/${await created(await post('invoices/gifs/statements', { period: await billablePeriod() }))}`, json: { status: 'issued' } })],
  ['PATCH invoices/gifs/statements/{id} (paid)', ['billing', 'admin'], async () => {
    const id = await created(await post('invoices/gifs/statements', { period: await billablePeriod() }));
    expect((await api(`invoices/gifs/statements/${id}`, { method: 'PATCH', token: adminToken, json: { status: 'issued' } })).status).toBe(200);
    return { method: 'PATCH', path: `invoices/gifs/statements/${id}`, json: { status: 'paid' } };
  }],
];

/** Every row of every table, the audit log included. */
const everything = async () => {
  const results = await env.DB.batch(DATA_TABLES.map((table) => env.DB.prepare(`SELECT * FROM ${table} ORDER BY rowid`)));
  return results.map((result) => result.results);
};

const callers = {} as Record<Role, TestUser>;

beforeAll(async () => {
  for (const role of ROLES) {
    const { user, token } = await signedIn(role);
    callers[role] = user;
    tokens[role] = token;
  }
  adminToken = tokens.admin;
});

describe('the permission matrix', () => {
  const cases = ROUTES.flatMap(([name, allowed, make]) => ROLES.map((role) => [name, role, allowed.includes(role), make] as const));

  it.each(cases)('%s as %s', async (_, role, allowed, make) => {
    const call = await make(callers[role]);
    const before = await everything();
    const res = await api(call.path, { method: call.method, token: tokens[role], json: call.json });
    if (allowed) {
      expect(res.status, await res.clone().text()).toBeLessThan(300);
      return;
    }
    const body = await expectError(res, 403);
    expect(body.message).toMatch(/^You need the (admin|billing or admin) role to /);
    // A forbidden call changes nothing, and leaves nothing in the log either.
    expect(await everything()).toEqual(before);
  });

  it('password change is open to every role, for their own account', async () => {
    for (const role of ROLES) {
      const { user, token } = await signedIn(role);
      const res = await api('users/change-password', { method: 'PATCH', token, json: { id: user.id, newPassword: 'changed pw', confirmPassword: 'changed pw' } });
      expect(res.status).toBe(200);
    }
  });

  it('the login response and the user records carry the role', async () => {
    for (const role of ROLES) {
      const user = await createUser({ role });
      const { body } = await readJson<{ role: Role }>(await attemptLogin(user, { ip: freshIp() }));
      expect(body.role).toBe(role);
      expect((await readJson<{ role: Role }>(await api(`users/${user.id}`, { token: tokens.staff }))).body.role).toBe(role);
    }
  });

  it('a new user is staff unless a role is given', async () => {
    const email = `default-${crypto.randomUUID()}@example.com`;
    const res = await post('users', { firstName: 'D', surname: 'R', email, password: 'a password' });
    expect((await readJson<{ role: Role }>(res)).body.role).toBe('staff');
  });
});

/** Leaves `keep` as the only active admin. */
const onlyAdmins = async (...keep: number[]) => {
  await env.DB.prepare(`UPDATE users SET role = 'staff' WHERE role = 'admin' AND id NOT IN (${keep.map(() => '?').join(', ')})`).bind(...keep).run();
};
const activeAdmins = async () =>
  (await env.DB.prepare("SELECT id FROM users WHERE role = 'admin' AND is_active = 1 ORDER BY id").all<{ id: number }>()).results.map((row) => row.id);

describe('the last active admin and the self rules', () => {
  // These tests take the admin role from everyone else; the admin caller of the other tests gets it back.
  afterEach(async () => {
    await env.DB.prepare("UPDATE users SET role = 'admin' WHERE id = ?1").bind(callers.admin.id).run();
  });

  it('the last active admin cannot be demoted (409) or deactivated; nobody deactivates themselves', async () => {
    const { user, token } = await signedIn('admin');
    const other = await signedIn('admin');
    await onlyAdmins(user.id, other.user.id);
    // The other admin may go; then the remaining one is the last.
    expect((await api('users', { method: 'PATCH', token, json: { id: other.user.id, isActive: false } })).status).toBe(200);
    const before = await everything();
    const problem = await expectConflict(await api('users', { method: 'PATCH', token, json: { id: user.id, role: 'billing' } }));
    expect(problem.detail).toMatch(/last active admin/);
    await expectError(await api('users', { method: 'PATCH', token, json: { id: user.id, isActive: false } }), 400);
    expect(await everything()).toEqual(before);
    expect(await activeAdmins()).toEqual([user.id]);
    // Unchanged values are no demotion: renaming the last admin still works.
    expect((await api('users', { method: 'PATCH', token, json: { id: user.id, role: 'admin', firstName: 'Still' } })).status).toBe(200);
  });

  it('two admins taking each other’s role at once: exactly one succeeds (the rule is in the write)', async () => {
    const [a, b] = [await createUser({ role: 'admin' }), await createUser({ role: 'admin' })];
    await onlyAdmins(a.id, b.id);
    const outcomes = await Promise.allSettled([
      updateUser(env.DB, a.id, { role: 'staff' }, NO_ACTOR),
      updateUser(env.DB, b.id, { isActive: false }, NO_ACTOR),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const [refused] = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(refused?.reason).toBeInstanceOf(Conflict);
    expect(await activeAdmins()).toHaveLength(1);
  });

  it('over HTTP, an admin demoting both admins at once keeps one', async () => {
    const a = await signedIn('admin');
    const b = await createUser({ role: 'admin' });
    await onlyAdmins(a.user.id, b.id);
    const statuses = await Promise.all(
      [a.user.id, b.id].map(async (id) => (await api('users', { method: 'PATCH', token: a.token, json: { id, role: 'staff' } })).status),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    // The other is refused by the rule (409) or, when the first demoted the caller, by the token (401).
    expect(statuses.filter((s) => s === 409 || s === 401)).toHaveLength(1);
    expect(await activeAdmins()).toHaveLength(1);
  });
});

describe('tokens end when the account changes', () => {
  const works = async (token: string) => (await api('tickets?pageSize=1', { token })).status;

  it('deactivation: refused, and still refused after reactivation', async () => {
    const user = await createUser();
    const token = await login(user, freshIp());
    expect(await works(token)).toBe(200);
    expect((await api('users', { method: 'PATCH', token: adminToken, json: { id: user.id, isActive: false } })).status).toBe(200);
    expect(await works(token)).toBe(401);
    expect((await api('users', { method: 'PATCH', token: adminToken, json: { id: user.id, isActive: true } })).status).toBe(200);
    expect(await works(token)).toBe(401);
    expect(await works(await login(user, freshIp()))).toBe(200);
  });

  it('a role change: the old token is refused at once, a new sign-in carries the new role', async () => {
    const user = await createUser({ role: 'billing' });
    const token = await login(user, freshIp());
    expect((await api('users', { method: 'PATCH', token: adminToken, json: { id: user.id, role: 'staff' } })).status).toBe(200);
    expect(await works(token)).toBe(401);
    // The same role again is no change: a fresh token survives it.
    const fresh = await login(user, freshIp());
    expect((await api('users', { method: 'PATCH', token: adminToken, json: { id: user.id, role: 'staff', surname: 'Same' } })).status).toBe(200);
    expect(await works(fresh)).toBe(200);
  });

  it('a password change: every other session ends in the same second, the returned token works', async () => {
    const user = await createUser();
    const [first, second] = [await login(user, freshIp()), await login(user, freshIp())];
    const res = await api('users/change-password', { method: 'PATCH', token: first, json: { id: user.id, newPassword: 'brand new pw', confirmPassword: 'brand new pw' } });
    const { status, body } = await readJson<{ message: string; token: string }>(res);
    expect(status).toBe(200);
    expect(body.message).toBe('Password changed');
    expect(decodeJwt(body.token).payload).toMatchObject({ sub: String(user.id), sv: 1 });
    expect(await works(first)).toBe(401);
    expect(await works(second)).toBe(401);
    expect(await works(body.token)).toBe(200);
    expect((await attemptLogin({ ...user, password: 'brand new pw' }, { ip: freshIp() })).status).toBe(200);
  });

  it('an admin’s password reset ends the user’s sessions; the new password signs in', async () => {
    const user = await createUser();
    const token = await login(user, freshIp());
    expect((await api('users', { method: 'PATCH', token: adminToken, json: { id: user.id, password: 'reset by admin' } })).status).toBe(200);
    expect(await works(token)).toBe(401);
    expect((await attemptLogin(user, { ip: freshIp() })).status).toBe(401);
    expect((await attemptLogin({ ...user, password: 'reset by admin' }, { ip: freshIp() })).status).toBe(200);
  });
});
