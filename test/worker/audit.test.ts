import { createExecutionContext, env } from 'cloudflare:test';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, Page } from '../../src/shared/types';
import { createApp } from '../../src/worker/index';
import type { AuditQuery } from '../../src/shared/schemas/audit';
import { auditExportChunkSql, auditExportLimits } from '../../src/worker/provider/db/audit';
import { countD1Calls } from './d1-limits';
import { ORIGIN, api, attemptLogin, createUser, expectError, freshIp, readJson, signedIn, type TestUser } from './support';

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
    expect(update).toMatchObject({ action: 'update', changes: { status: ['open', 'resolved'], priority: ['high', 'low'] } });
    // The answer's X-Request-Id, then a part of the provider's own that no other request shares.
    expect(update?.requestId).toMatch(new RegExp(`^${requestId}~[0-9a-f]{8}$`));
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
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(`,create,ticket,${ticket.id},`);
    expect(lines[1]).toContain('""title"":[null,""=SUM(A1), \\""quoted\\""""]');
    expect(lines[2]).toContain(',login,session,');
    // Written only once every entry is: a file without it was cut off.
    expect(lines[3]).toBe('# end of export: 2 entries');
  });
});

describe('GET audit.csv at scale', () => {
  const app = createApp({ log: () => {} });

  /** env.DB whose `failAt`-th read of entries fails, as a read past D1's limits would. */
  const failingDb = (failAt: number) => {
    let reads = 0;
    const failing = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
      const all = statement.all;
      const bind = statement.bind;
      return Object.assign(statement, {
        all: (...args: unknown[]) => {
          if (sql.includes('FROM audit_log a LEFT JOIN users u') && ++reads === failAt) return Promise.reject(new Error('D1_ERROR: injected failure mid-export'));
          return (all as (...a: unknown[]) => unknown).apply(statement, args);
        },
        bind: (...values: unknown[]) => failing(bind.apply(statement, values), sql),
      });
    };
    return new Proxy(env.DB, {
      get(target, key) {
        if (key === 'prepare') return (sql: string) => failing(target.prepare(sql), sql);
        const value: unknown = Reflect.get(target, key);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  };

  const exportWith = (query: string, db = env.DB) =>
    app.fetch(new Request(`${ORIGIN}/api/v1/audit.csv?${query}`, { headers: { authorization: `Bearer ${admin.token}` } }), { ...env, DB: db }, createExecutionContext());

  /** An export's status and text, and the D1 calls the request made, its body's reads included. */
  const exported = async (query: string) => {
    const { calls, result } = await countD1Calls(async () => {
      const res = await exportWith(query);
      return { status: res.status, text: await res.text() };
    });
    return { ...result, calls };
  };

  /** `count` entries, one a second from `start`, each with a title change of `padding` extra characters. */
  const insertEntries = async (start: string, count: number, padding = 0) => {
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
       INSERT INTO audit_log (at, actor_id, action, entity, entity_id, changes, request_id)
       SELECT strftime('%Y-%m-%dT%H:%M:%fZ', ?2, '+' || i || ' seconds'), NULL, 'update', 'ticket', i,
              json_object('title', json_array('old', 'new ' || i || substr(printf('%.*c', ?3, 'x'), 1, ?3))), 'bulk'
       FROM n`,
    )
      .bind(count, start, padding)
      .run();
  };

  /** The entity ids of a complete CSV export's entries, in the file's order. */
  const entityIds = (csv: string) => {
    const lines = csv.trimEnd().split('\r\n');
    expect(lines.pop()).toBe(`# end of export: ${lines.length - 1} entries`);
    return lines.slice(1).map((line) => Number(line.split(',')[6]));
  };

  const limits = { ...auditExportLimits };
  afterEach(() => Object.assign(auditExportLimits, limits));

  it('reads a chunk of thousands of entries at a time, so a million fit the D1 budget', () => {
    expect(auditExportLimits.rows).toBeGreaterThanOrEqual(2_000);
    // Every entry of the export fits within the reads, with the session check and the count besides.
    expect(auditExportLimits.reads + 2).toBeLessThanOrEqual(900);
    expect(auditExportLimits.rows * (auditExportLimits.reads - 1)).toBeGreaterThanOrEqual(1_000_000);
  });

  it('streams every entry of a long range once, newest first, within the budget of D1 calls', async () => {
    const count = 300;
    await insertEntries('2001-01-01T00:00:00.000Z', count);
    // One entry per read, so the export needs all of the budget a real one has.
    auditExportLimits.rows = 1;
    auditExportLimits.reads = count;
    const { status, text, calls } = await exported('from=2001-01-01&to=2001-01-31');
    expect(status).toBe(200);
    expect(entityIds(text)).toEqual(Array.from({ length: count }, (_, i) => count - i));
    // The session check and the count are the other calls.
    expect(calls).toBe(count + 2);
  });

  it('goes on after the last entry sent when many entries share one moment', async () => {
    await insertEntries('2001-05-01T00:00:00.000Z', 4);
    // Seven more at the very moment of the last one, which only their ids tell apart.
    await env.DB.prepare(
      `INSERT INTO audit_log (at, action, entity, entity_id, changes) SELECT at, action, entity, entity_id + 10, changes FROM audit_log
       WHERE at >= '2001-05-01' AND at < '2001-05-02' UNION ALL SELECT at, action, entity, entity_id + 20, changes FROM audit_log
       WHERE at >= '2001-05-01' AND at < '2001-05-02' UNION ALL SELECT '2001-05-01T00:00:04.000Z', 'update', 'ticket', 30, '{}'`,
    ).run();
    auditExportLimits.rows = 2;
    const ids = entityIds((await exported('from=2001-05-01&to=2001-05-01')).text);
    expect(ids).toEqual([30, 24, 14, 4, 23, 13, 3, 22, 12, 2, 21, 11, 1]);
  });

  it('refuses, before any entry is sent, a range that would need more reads than the budget', async () => {
    await insertEntries('2001-02-01T00:00:00.000Z', 30);
    auditExportLimits.rows = 1;
    auditExportLimits.reads = 29;
    const { result: refused, calls } = await countD1Calls(async () => expectError(await exportWith('from=2001-02-01&to=2001-02-28'), 400));
    expect(refused.message).toBe('The export would hold 30 entries, more than one file can take; narrow From and To to export the log in parts');
    expect(refused.errors).toEqual({ from: ['Narrow From and To'], to: ['Narrow From and To'] });
    // The session check and the count: not one entry was read.
    expect(calls).toBe(2);
    auditExportLimits.reads = 30;
    expect((await exported('from=2001-02-01&to=2001-02-28')).status).toBe(200);
  });

  it('caps the characters one read holds, and counts them against the budget too', async () => {
    await insertEntries('2001-03-01T00:00:00.000Z', 40, 500);
    auditExportLimits.chars = 2_000;
    const { status, text, calls } = await exported('from=2001-03-01&to=2001-03-31');
    expect(status).toBe(200);
    expect(entityIds(text)).toEqual(Array.from({ length: 40 }, (_, i) => 40 - i));
    // Three entries of some 530 characters to a read: 14 reads, besides the session check and the count.
    expect(calls).toBe(14 + 2);
    auditExportLimits.reads = 12;
    expect((await exported('from=2001-03-01&to=2001-03-31')).status).toBe(400);
  });

  it('a read failing midway errors the body instead of ending it like a complete file', async () => {
    await insertEntries('2001-04-01T00:00:00.000Z', 10);
    auditExportLimits.rows = 3;
    const res = await exportWith('from=2001-04-01&to=2001-04-30', failingDb(2));
    expect(res.status).toBe(200);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const failure = await (async () => {
      try {
        for (let next = await reader.read(); !next.done; next = await reader.read()) text += next.value;
      } catch (error) {
        return error;
      }
      return null;
    })();
    expect(String(failure)).toMatch(/injected failure/);
    // What did arrive is the header and the first read, with no end line.
    expect(text.trimEnd().split('\r\n').map((line) => line.split(',')[6])).toEqual(['entity_id', '10', '9', '8']);
  });

  it('reads each chunk as one range of an index, in its order', async () => {
    for (const [filters, index] of [
      [{}, 'audit_log_at'],
      [{ actorId: 3 }, 'audit_log_actor'],
      [{ entity: 'ticket', entityId: 7 }, 'audit_log_entity'],
    ] as const) {
      const { sql, params } = auditExportChunkSql(filters as AuditQuery, 1_000, { at: '2026-01-01T00:00:00.000Z', id: 500 }, 4_000, 3_000_000);
      const plan = (await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`).bind(...params).all<{ detail: string }>()).results.map((row) => row.detail).join('\n');
      expect(plan, plan).toMatch(new RegExp(`INDEX ${index} \\(.*at<\\?`));
      expect(plan, plan).not.toMatch(/SCAN a\b/);
    }
  });
});
