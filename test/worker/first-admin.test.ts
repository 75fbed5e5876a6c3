import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { APP_AUDIENCE } from '../../src/shared/constants';
import { SETUP_REQUEST_ID } from '../../src/shared/schemas/audit';
import type { AuditEntry, Page } from '../../src/shared/types';
import { hashPassword } from '../../src/worker/provider/auth/password';
import { inlineParams } from '../../src/worker/provider/db/bulk';
import { createFirstAdmin, firstAdminStatements, type FirstAdmin } from '../../src/worker/provider/db/first-admin';
import { api } from './support';

// `npm run admin:create` builds these statements; locally they run through the D1 binding, with
// --remote inlined through `wrangler d1 execute`. Both forms run here against real D1.

const PASSWORD = 'first admin of a new deployment';
const admin = async (email: string): Promise<FirstAdmin> => ({ firstName: 'Ops', surname: "O'Hara", email, passwordHash: await hashPassword(PASSWORD) });
const auditCount = async () => (await env.DB.prepare('SELECT count(*) AS n FROM audit_log').first<number>('n')) ?? 0;
const signIn = (email: string) => api('auth/login', { method: 'POST', json: { username: email, password: PASSWORD, audience: APP_AUDIENCE } });
const runInlined = (record: FirstAdmin) => env.DB.batch(firstAdminStatements(record).map((statement) => env.DB.prepare(inlineParams(statement))));

describe.each([
  ['through the D1 binding', (record: FirstAdmin) => createFirstAdmin(env.DB, record)],
  ['inlined, as wrangler d1 execute runs them', runInlined],
])('the first admin %s', (_, create) => {
  it('is an active admin who can sign in, and the audit log records it as made by setup', async () => {
    const email = `ops-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await create(await admin(email));
    const user = await env.DB.prepare('SELECT id, role, is_active, password_hash FROM users WHERE email = ?1').bind(email).first<{ id: number; role: string; is_active: number; password_hash: string }>();
    expect(user).toMatchObject({ role: 'admin', is_active: 1 });
    expect(user?.password_hash).toMatch(/^pbkdf2-sha256\$100000\$/);

    const res = await signIn(email);
    expect(res.status).toBe(200);
    const { token } = (await res.json()) as { token: string };
    const history = await api(`audit?entity=user&entityId=${user?.id}`, { token });
    const [entry, ...others] = ((await history.json()) as Page<AuditEntry>).items;
    expect(others).toEqual([]);
    expect(entry).toMatchObject({ actorId: null, actorName: null, action: 'create', entity: 'user', entityId: user?.id, requestId: SETUP_REQUEST_ID });
    expect(entry?.changes).toEqual({ firstName: [null, 'Ops'], surname: [null, "O'Hara"], email: [null, email], role: [null, 'admin'], isActive: [null, true], timeZone: [null, 'UTC'] });
  });

  it('refuses an email already in use, whatever its case, and writes nothing', async () => {
    const email = `taken-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await create(await admin(email));
    const entries = await auditCount();
    await expect(create(await admin(email.toUpperCase()))).rejects.toThrow(/Email address is already in use|UNIQUE constraint failed: users\.email/);
    expect(await auditCount()).toBe(entries);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM users WHERE email = ?1').bind(email).first<number>('n')).toBe(1);
  });
});
