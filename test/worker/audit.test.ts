import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, Page } from '../../src/shared/types';
import { api, attemptLogin, createUser, expectError, freshIp, readJson, signedIn, type TestUser } from './support';

let admin: { user: TestUser; token: string };

const history = async (entity: string, entityId: number, token = admin.token) => {
  const res = await api(`audit?entity=${entity}&entityId=${entityId}&pageSize=200`, { token });
  const { status, body } = await readJson<Page<AuditEntry>>(res);
  expect(status).toBe(200);
  return body.items;
};

const send = async <T = Record<string, unknown>>(path: string, method: string, json?: unknown, token = admin.token) => {
  const { status, body } = await readJson<T>(await api(path, { method, token, json }));
  expect(status, JSON.stringify(body)).toBeLessThan(300);
  return body;
};

const auditRows = async () => (await env.DB.prepare('SELECT count(*) AS n FROM audit_log').first<number>('n')) ?? 0;

beforeAll(async () => {
  admin = await signedIn('admin');
});

describe('an entry for each kind of change', () => {
  it('a ticket: create, update with only the changed fields, comment and time, with actor and request id', async () => {
    const company = await send<{ id: number; name: string }>('companies', 'POST', { name: `Audit Co ${crypto.randomUUID()}` });
    const ticket = await send<{ id: number }>('tickets', 'POST', { title: 'Printer jam', priority: 'high', companyId: company.id });
    const res = await api(`tickets/${ticket.id}`, { method: 'PATCH', token: admin.token, json: { title: 'Printer jam', status: 'resolved', priority: 'low' } });
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id');
    await send(`tickets/${ticket.id}/comments`, 'POST', { body: 'Cleared the tray' });
    await send(`tickets/${ticket.id}/time-entries`, 'POST', { workDate: '2026-03-02', minutes: 30, billable: false });

    const [time, comment, update, create] = await history('ticket', ticket.id);
    expect(create).toMatchObject({
      action: 'create',
      entity: 'ticket',
      entityId: ticket.id,
      actorId: admin.user.id,
      actorName: `${admin.user.firstName} ${admin.user.surname}`,
      changes: { title: [null, 'Printer jam'], priority: [null, 'high'], status: [null, 'open'], companyId: [null, company.id], reporterId: [null, admin.user.id] },
    });
    // Only what changed: the title was sent unchanged.
    expect(update).toMatchObject({ action: 'update', requestId, changes: { status: ['open', 'resolved'], priority: ['high', 'low'] } });
    expect(Object.keys(update?.changes ?? {}).sort()).toEqual(['priority', 'status']);
    expect(comment).toMatchObject({ action: 'comment', entity: 'ticket', entityId: ticket.id, changes: { body: [null, 'Cleared the tray'] } });
    expect(time).toMatchObject({ action: 'time', changes: { workDate: [null, '2026-03-02'], minutes: [null, 30], billable: [null, false] } });
    expect(requestId).toMatch(/\S/);
    expect(new Date(create?.at ?? '').toISOString()).toBe(create?.at);
  });

  it('a PATCH that sends only the current values leaves no entry', async () => {
    const ticket = await send<{ id: number; title: string }>('tickets', 'POST', { title: 'Same' });
    const before = await auditRows();
    await send(`tickets/${ticket.id}`, 'PATCH', { title: 'Same' });
    expect(await auditRows()).toBe(before);
  });

  it('companies and categories: create, update, delete', async () => {
    const name = `Lookup ${crypto.randomUUID()}`;
    const company = await send<{ id: number }>('companies', 'POST', { name, code: 'LK' });
    await send(`companies/${company.id}`, 'PATCH', { code: 'LK2', isActive: false });
    expect((await api(`companies/${company.id}`, { method: 'DELETE', token: admin.token })).status).toBe(204);
    const [removed, updated, created] = await history('company', company.id);
    expect(created).toMatchObject({ action: 'create', changes: { name: [null, name], code: [null, 'LK'], isActive: [null, true] } });
    expect(updated).toMatchObject({ action: 'update', changes: { code: ['LK', 'LK2'], isActive: [true, false] } });
    expect(removed).toMatchObject({ action: 'delete', changes: { name: [name, null], code: ['LK2', null], isActive: [false, null] } });

    const category = await send<{ id: number }>('ticket-categories', 'POST', { name });
    await send(`ticket-categories/${category.id}`, 'PATCH', { description: 'Things' });
    const [categoryUpdate, categoryCreate] = await history('ticket_category', category.id);
    expect(categoryCreate).toMatchObject({ action: 'create', changes: { name: [null, name] } });
    expect(categoryUpdate).toMatchObject({ action: 'update', changes: { description: ['', 'Things'] } });
  });

  it('users: create, role, deactivate, profile, password change and reset, never a password or hash', async () => {
    const created = await send<{ id: number; role: string }>('users', 'POST', {
      firstName: 'Nia',
      surname: 'Long',
      email: `nia-${crypto.randomUUID().slice(0, 8)}@example.com`,
      password: 'first secret 1',
      role: 'billing',
    });
    expect(created.role).toBe('billing');
    await send('users', 'PATCH', { id: created.id, role: 'staff', firstName: 'Niamh' });
    await send('users', 'PATCH', { id: created.id, password: 'reset secret 2' });
    await send('users', 'PATCH', { id: created.id, isActive: false });

    const [deactivated, reset, roleChange, create] = await history('user', created.id);
    expect(create).toMatchObject({ action: 'create', changes: { firstName: [null, 'Nia'], role: [null, 'billing'], isActive: [null, true] } });
    expect(create?.changes).not.toHaveProperty('password');
    expect(roleChange).toMatchObject({ action: 'update', changes: { role: ['billing', 'staff'], firstName: ['Nia', 'Niamh'] } });
    expect(reset).toMatchObject({ action: 'password', changes: { password: [null, null] } });
    expect(Object.keys(reset?.changes ?? {})).toEqual(['password']);
    expect(deactivated).toMatchObject({ action: 'update', changes: { isActive: [true, false] } });

    const self = await signedIn('staff');
    await send('users/profile', 'PATCH', { id: self.user.id, firstName: 'Renamed', surname: self.user.surname, email: self.user.email }, self.token);
    const changed = await send<{ token: string }>(
      'users/change-password',
      'PATCH',
      { id: self.user.id, newPassword: 'another secret 3', confirmPassword: 'another secret 3' },
      self.token,
    );
    const [password, profile] = await history('user', self.user.id, changed.token);
    expect(profile).toMatchObject({ action: 'update', actorId: self.user.id, changes: { firstName: ['Test', 'Renamed'] } });
    expect(password).toMatchObject({ action: 'password', actorId: self.user.id, changes: { password: [null, null] } });

    const everything = JSON.stringify((await env.DB.prepare('SELECT * FROM audit_log').all()).results);
    for (const secret of ['first secret 1', 'reset secret 2', 'another secret 3', 'pbkdf2']) expect(everything).not.toContain(secret);
    const hashes = (await env.DB.prepare('SELECT password_hash FROM users').all<{ password_hash: string }>()).results;
    for (const { password_hash } of hashes) expect(everything).not.toContain(password_hash.split('$')[3]);
  });

  it('invoice lines and statements: create, edit, generate, issue, paid', async () => {
    const line = await send<{ id: number }>('invoices/gifs-azure/lines', 'POST', { period: '2031-05', description: 'Azure', quantity: 2, unitPriceCents: 1500 });
    await send(`invoices/lines/${line.id}`, 'PATCH', { quantity: 3, status: 'approved' });
    const [edit, create] = await history('invoice_line', line.id);
    expect(create).toMatchObject({ action: 'create', changes: { source: [null, 'gifs-azure'], quantity: [null, 2], unitPriceCents: [null, 1500], amountCents: [null, 3000], status: [null, 'draft'] } });
    expect(edit).toMatchObject({ action: 'update', changes: { quantity: [2, 3], status: ['draft', 'approved'] } });

    const statement = await send<{ id: number }>('invoices/gifs/statements', 'POST', { period: '2031-05' });
    await send(`invoices/gifs/statements/${statement.id}`, 'PATCH', { status: 'issued' });
    await send(`invoices/gifs/statements/${statement.id}`, 'PATCH', { status: 'paid' });
    const [payment, paid, issued, generated] = await history('statement', statement.id);
    // The entry is written with the statement's INSERT; its lines and total come after it in the batch.
    expect(generated).toMatchObject({ action: 'create', changes: { period: [null, '2031-05'], sequence: [null, 1], status: [null, 'open'] } });
    expect(issued).toMatchObject({ action: 'update', changes: { status: ['open', 'issued'] } });
    expect(paid).toMatchObject({ action: 'update', changes: { status: ['issued', 'paid'] } });
    // "Mark paid" records the balance as a payment, in the statement's history.
    expect(payment).toMatchObject({ action: 'create', changes: { amountCents: [null, expect.any(Number)], method: [null, 'other'] } });
  });

  it('a backup', async () => {
    const { key } = await send<{ key: string }>('settings/backup-db', 'POST');
    const res = await api('audit?entity=backup&action=backup&pageSize=200', { token: admin.token });
    const { body } = await readJson<Page<AuditEntry>>(res);
    expect(body.items.find((item) => item.changes.key?.[1] === key)).toMatchObject({ action: 'backup', entity: 'backup', entityId: null, actorId: admin.user.id });
  });

  it('sign-ins: success, wrong password and unknown email', async () => {
    const user = await createUser();
    expect((await attemptLogin(user, { ip: freshIp() })).status).toBe(200);
    expect((await attemptLogin({ ...user, password: 'wrong' }, { ip: freshIp() })).status).toBe(401);
    const [failed, success] = await history('session', user.id);
    expect(success).toMatchObject({ action: 'login', entity: 'session', entityId: user.id, actorId: user.id });
    expect(failed).toMatchObject({ action: 'login_failed', entity: 'session', entityId: user.id, actorId: null, changes: { email: [null, user.email] } });

    const before = await auditRows();
    expect((await attemptLogin({ email: `nobody-${crypto.randomUUID()}@example.com`, password: 'x' }, { ip: freshIp() })).status).toBe(401);
    expect(await auditRows()).toBe(before + 1);
    const latest = await env.DB.prepare('SELECT * FROM audit_log ORDER BY id DESC LIMIT 1').first();
    expect(latest).toMatchObject({ action: 'login_failed', entity: 'session', entity_id: null, actor_id: null });
  });
});

describe('atomicity', () => {
  // A trigger that refuses one marked entry stands in for any failure to write the entry.
  it('when the entry cannot be written, the change is not kept either', async () => {
    await env.DB.prepare(
      `CREATE TRIGGER refuse_marked_audit BEFORE INSERT ON audit_log
       WHEN NEW.changes LIKE '%refuse-audit%' BEGIN SELECT RAISE(ABORT, 'audit refused'); END`,
    ).run();
    try {
      const ticket = await send<{ id: number }>('tickets', 'POST', { title: 'Kept' });
      const before = await auditRows();
      expect((await api(`tickets/${ticket.id}`, { method: 'PATCH', token: admin.token, json: { title: 'refuse-audit' } })).status).toBe(500);
      expect((await api('tickets', { method: 'POST', token: admin.token, json: { title: 'refuse-audit new' } })).status).toBe(500);
      expect((await api('companies', { method: 'POST', token: admin.token, json: { name: 'refuse-audit co' } })).status).toBe(500);
      expect(await auditRows()).toBe(before);
      expect((await env.DB.prepare('SELECT title FROM tickets WHERE id = ?1').bind(ticket.id).first())?.title).toBe('Kept');
      expect(await env.DB.prepare("SELECT count(*) AS n FROM tickets WHERE title LIKE 'refuse-audit%'").first('n')).toBe(0);
      expect(await env.DB.prepare("SELECT count(*) AS n FROM companies WHERE name = 'refuse-audit co'").first('n')).toBe(0);
    } finally {
      await env.DB.prepare('DROP TRIGGER refuse_marked_audit').run();
    }
  });
});

describe('GET audit', () => {
  it('one record’s history is open to every role; the whole log, other filters and the CSV are admin only', async () => {
    const ticket = await send<{ id: number }>('tickets', 'POST', { title: 'Visible history' });
    for (const role of ['staff', 'billing'] as const) {
      const { token } = await signedIn(role);
      expect(await history('ticket', ticket.id, token)).toHaveLength(1);
      for (const path of ['audit', 'audit?entity=ticket', `audit?entityId=${ticket.id}`, `audit?actorId=${admin.user.id}`, 'audit.csv', `audit.csv?entity=ticket&entityId=${ticket.id}`]) {
        const body = await expectError(await api(path, { token }), 403);
        expect(body.message).toMatch(/admin/);
      }
    }
    expect((await api('audit', { token: admin.token })).status).toBe(200);
    expect((await api('audit')).status).toBe(401);
  });

  it('reads one entry by its id, admins only unless it is within one record’s history', async () => {
    const ticket = await send<{ id: number }>('tickets', 'POST', { title: 'One entry' });
    const [created] = await history('ticket', ticket.id, admin.token);
    const one = (await readJson<Page<AuditEntry>>(await api(`audit?id=${created!.id}`, { token: admin.token }))).body;
    expect(one.total).toBe(1);
    expect(one.items).toEqual([expect.objectContaining({ id: created!.id, action: 'create', entity: 'ticket', entityId: ticket.id })]);
    const { token } = await signedIn('staff');
    await expectError(await api(`audit?id=${created!.id}`, { token }), 403);
    const within = (await readJson<Page<AuditEntry>>(await api(`audit?entity=ticket&entityId=${ticket.id}&id=${created!.id}`, { token }))).body;
    expect(within.items.map((entry) => entry.id)).toEqual([created!.id]);
  });

  it('filters by person, action and days, newest first, paginated', async () => {
    const actor = await signedIn('admin');
    const tickets = [];
    for (const title of ['one', 'two', 'three']) tickets.push(await send<{ id: number }>('tickets', 'POST', { title }, actor.token));
    const page = async (query: string) => (await readJson<Page<AuditEntry>>(await api(`audit?actorId=${actor.user.id}&${query}`, { token: admin.token }))).body;

    const all = await page('action=create');
    expect(all.total).toBe(3);
    expect(all.items.map((entry) => entry.entityId)).toEqual(tickets.map((t) => t.id).reverse());
    const second = await page('action=create&pageSize=2&page=2');
    expect(second).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(second.items.map((entry) => entry.entityId)).toEqual([tickets[0]?.id]);

    const today = new Date().toISOString().slice(0, 10);
    expect((await page(`from=${today}&to=${today}`)).total).toBe(4); // the sign-in too
    expect((await page('to=2000-01-01')).total).toBe(0);
    expect((await page('action=update')).total).toBe(0);
  });

  it.each([
    'entity=invoice',
    'entityId=abc',
    'entityId=0',
    'id=abc',
    'id=0',
    'actorId=-1',
    'action=steal',
    'from=2026-02-30',
    'from=yesterday',
    'from=2026-03-02&to=2026-03-01',
    'page=0',
    'pageSize=201',
  ])('answers 400 to %s', async (query) => {
    await expectError(await api(`audit?${query}`, { token: admin.token }), 400);
    await expectError(await api(`audit.csv?${query}`, { token: admin.token }), 400);
  });

  it('exports the filtered log as CSV, every matching entry', async () => {
    const actor = await signedIn('admin');
    const ticket = await send<{ id: number }>('tickets', 'POST', { title: '=SUM(A1), "quoted"' }, actor.token);
    const res = await api(`audit.csv?actorId=${actor.user.id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await res.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,at,actor_id,actor,action,entity,entity_id,changes,request_id');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`,create,ticket,${ticket.id},`);
    expect(lines[1]).toContain('""title"":[null,""=SUM(A1), \\""quoted\\""""]');
    expect(lines[2]).toContain(',login,session,');
  });
});
