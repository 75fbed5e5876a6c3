import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntity, InvoiceLine, Page, StatementDetail, User, Versioned } from '../../src/shared/types';
import { api, createUser, expectError, login, readJson, signedIn } from './support';

/**
 * docs/architecture.md#record-versions: every editable record carries a version, GET answers it as the ETag, and a PATCH
 * naming an older version in If-Match gets 412 with the current record and changes nothing.
 */

type Stored = Versioned & { id: number };

interface Resource {
  entity: AuditEntity;
  /** A new record of its own, and the token that may edit it. */
  create: () => Promise<{ record: Stored; token: string }>;
  getPath: (id: number) => string;
  patchPath: (id: number) => string;
  /** The n-th edit of a record, valid after the ones before it. */
  edit: (record: Stored, n: number) => Record<string, unknown>;
  /** A list that holds the record. */
  listPath: (record: Stored) => string;
}

let admin: string;
let unique = 0;
const next = () => `${Date.now().toString(36)}${(unique += 1)}`;
// Periods of their own, so no other test file's lines are billed on these statements.
let month = 0;
const nextPeriod = () => {
  month += 1;
  return `${2096 + Math.floor((month - 1) / 12)}-${String(((month - 1) % 12) + 1).padStart(2, '0')}`;
};

const created = async <T>(res: Response) => {
  const { status, body, text } = await readJson<T>(res);
  expect(status, text).toBe(201);
  return body;
};

const newStatement = async (token: string) => {
  const period = nextPeriod();
  await created(await api('invoices/gifs-sla/lines', { method: 'POST', token, json: { period, description: 'SLA', quantity: 1, unitPriceCents: 100, status: 'approved' } }));
  return created<StatementDetail>(await api('invoices/gifs/statements', { method: 'POST', token, json: { period } }));
};

const RESOURCES: Record<string, Resource> = {
  ticket: {
    entity: 'ticket',
    create: async () => ({ record: await created(await api('tickets', { method: 'POST', token: admin, json: { title: `Versioned ${next()}` } })), token: admin }),
    getPath: (id) => `tickets/${id}`,
    patchPath: (id) => `tickets/${id}`,
    edit: (_, n) => ({ title: `Edited ${n}`, priority: n % 2 ? 'low' : 'urgent' }),
    listPath: (record) => `tickets?q=${record.id}`,
  },
  'user (admin)': {
    entity: 'user',
    create: async () => {
      const user = await createUser({ surname: `Versioned${next()}` });
      return { record: await (await api(`users/${user.id}`, { token: admin })).json<User>(), token: admin };
    },
    getPath: (id) => `users/${id}`,
    patchPath: () => 'users',
    edit: (record, n) => ({ id: record.id, firstName: ['Ada', 'Bea', 'Cai'][n % 3] }),
    listPath: (record) => `users?q=${encodeURIComponent((record as unknown as User).email)}`,
  },
  'user (own profile)': {
    entity: 'user',
    create: async () => {
      const user = await createUser({ surname: `Profile${next()}` });
      const token = await login(user);
      return { record: await (await api(`users/${user.id}`, { token })).json<User>(), token };
    },
    getPath: (id) => `users/${id}`,
    patchPath: () => 'users/profile',
    edit: (record, n) => {
      const user = record as unknown as User;
      return { id: user.id, firstName: ['Dee', 'Eve', 'Fay'][n % 3], surname: user.surname, email: user.email };
    },
    listPath: (record) => `users?q=${encodeURIComponent((record as unknown as User).email)}`,
  },
  company: {
    entity: 'company',
    create: async () => ({ record: await created(await api('companies', { method: 'POST', token: admin, json: { name: `Versioned Co ${next()}` } })), token: admin }),
    getPath: (id) => `companies/${id}`,
    patchPath: (id) => `companies/${id}`,
    edit: (_, n) => ({ code: `V${n}` }),
    listPath: (record) => `companies?q=${encodeURIComponent((record as unknown as { name: string }).name)}`,
  },
  'ticket category': {
    entity: 'ticket_category',
    create: async () => ({ record: await created(await api('ticket-categories', { method: 'POST', token: admin, json: { name: `Versioned Cat ${next()}` } })), token: admin }),
    getPath: (id) => `ticket-categories/${id}`,
    patchPath: (id) => `ticket-categories/${id}`,
    edit: (_, n) => ({ description: `Edited ${n}` }),
    listPath: (record) => `ticket-categories?q=${encodeURIComponent((record as unknown as { name: string }).name)}`,
  },
  'invoice line': {
    entity: 'invoice_line',
    create: async () => ({
      record: await created(await api('invoices/autofi/lines', { method: 'POST', token: admin, json: { period: nextPeriod(), description: 'Line', quantity: 2, unitPriceCents: 150 } })),
      token: admin,
    }),
    getPath: (id) => `invoices/lines/${id}`,
    patchPath: (id) => `invoices/lines/${id}`,
    edit: (_, n) => ({ description: `Edited ${n}`, quantity: n + 3 }),
    listPath: (record) => `invoices/autofi/lines?period=${(record as unknown as InvoiceLine).period}`,
  },
  statement: {
    entity: 'statement',
    create: async () => ({ record: await newStatement(admin), token: admin }),
    getPath: (id) => `invoices/gifs/statements/${id}`,
    patchPath: (id) => `invoices/gifs/statements/${id}`,
    edit: (_, n) => ({ status: ['issued', 'paid'][n] }),
    listPath: () => 'invoices/gifs/statements?pageSize=100',
  },
};

const get = async (resource: Resource, id: number, token: string) => {
  const res = await api(resource.getPath(id), { token });
  const read = await readJson<Stored>(res);
  expect(read.status, read.text).toBe(200);
  return read;
};

const patch = (resource: Resource, record: Stored, token: string, n: number, ifMatch?: string) =>
  api(resource.patchPath(record.id), { method: 'PATCH', token, json: resource.edit(record, n), headers: ifMatch === undefined ? {} : { 'if-match': ifMatch } });

const auditCount = async (entity: AuditEntity, id: number) =>
  (await env.DB.prepare('SELECT count(*) AS n FROM audit_log WHERE entity = ?1 AND entity_id = ?2').bind(entity, id).first<number>('n')) ?? 0;

beforeAll(async () => {
  ({ token: admin } = await signedIn());
});

describe.each(Object.entries(RESOURCES))('%s', (_, resource) => {
  it('answers GET with the version as the ETag and in the body, and lists it', async () => {
    const { record, token } = await resource.create();
    expect(record.version).toBe(1);
    const { headers, body } = await get(resource, record.id, token);
    expect(headers.get('etag')).toBe('"1"');
    expect(body.version).toBe(1);
    const list = await readJson<Page<Stored>>(await api(resource.listPath(record), { token }));
    expect(list.body.items.find((item) => item.id === record.id)?.version).toBe(1);
  });

  it('saves with the matching If-Match, one version on, and names the new version', async () => {
    const { record, token } = await resource.create();
    const res = await patch(resource, record, token, 0, '"1"');
    const { status, headers, body, text } = await readJson<Stored>(res);
    expect(status, text).toBe(200);
    expect(body.version).toBe(2);
    expect(headers.get('etag')).toBe('"2"');
    expect((await get(resource, record.id, token)).body).toEqual(body);
  });

  it.each(['W/"1"', '1', ' "1" '])('accepts If-Match written as %j', async (ifMatch) => {
    const { record, token } = await resource.create();
    const res = await patch(resource, record, token, 0, ifMatch);
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await res.json<Stored>()).version).toBe(2);
  });

  it('refuses a save made from an older version with 412 and the current record, changing nothing', async () => {
    const { record, token } = await resource.create();
    expect((await patch(resource, record, token, 0)).status).toBe(200);
    const current = await get(resource, record.id, token);
    const entries = await auditCount(resource.entity, record.id);

    const res = await patch(resource, record, token, 1, '"1"');
    const { status, headers, body } = await readJson<Stored>(res);
    expect(status).toBe(412);
    expect(body).toEqual(current.body);
    expect(headers.get('etag')).toBe('"2"');
    expect((await get(resource, record.id, token)).body).toEqual(current.body);
    expect(await auditCount(resource.entity, record.id)).toBe(entries);
  });

  it('saves without If-Match as before, one version on', async () => {
    const { record, token } = await resource.create();
    const first = await patch(resource, record, token, 0);
    expect(first.status).toBe(200);
    expect((await first.json<Stored>()).version).toBe(2);
    const second = await patch(resource, record, token, 1);
    expect(second.status).toBe(200);
    expect((await second.json<Stored>()).version).toBe(3);
  });

  it.each(['"abc"', 'W/', '"1", "2"', '"-1"', '""', '1.5'])('answers a malformed If-Match %j with 400 and changes nothing', async (ifMatch) => {
    const { record, token } = await resource.create();
    const before = await get(resource, record.id, token);
    const body = await expectError(await patch(resource, record, token, 0, ifMatch), 400);
    expect(body.message).toMatch(/If-Match/);
    expect((await get(resource, record.id, token)).body).toEqual(before.body);
  });

  it('lets exactly one of two concurrent saves from the same version through', async () => {
    const { record, token } = await resource.create();
    const entries = await auditCount(resource.entity, record.id);
    const answers = await Promise.all([patch(resource, record, token, 0, '"1"'), patch(resource, record, token, 0, '"1"')]);
    expect(answers.map((res) => res.status).sort()).toEqual([200, 412]);
    const winner = await (answers.find((res) => res.status === 200) as Response).json<Stored>();
    const loser = await (answers.find((res) => res.status === 412) as Response).json<Stored>();
    expect(winner.version).toBe(2);
    expect(loser).toEqual(winner);
    expect((await get(resource, record.id, token)).body.version).toBe(2);
    expect(await auditCount(resource.entity, record.id)).toBe(entries + 1);
  });
});

describe('writes that change a record through another', () => {
  it('counts a statement issue on its lines and a line edit on its open statement', async () => {
    const statement = await newStatement(admin);
    const [billed] = statement.lines;
    const line = await (await api(`invoices/lines/${billed?.id}`, { token: admin })).json<InvoiceLine>();
    expect(line.version).toBe(2); // created, then put on the statement
    const edited = await api(`invoices/lines/${line.id}`, { method: 'PATCH', token: admin, json: { quantity: 3 }, headers: { 'if-match': '"2"' } });
    expect(edited.status).toBe(200);
    const afterEdit = await (await api(`invoices/gifs/statements/${statement.id}`, { token: admin })).json<StatementDetail>();
    expect(afterEdit).toMatchObject({ totalCents: 300, version: 2 });

    const issued = await api(`invoices/gifs/statements/${statement.id}`, { method: 'PATCH', token: admin, json: { status: 'issued' }, headers: { 'if-match': '"2"' } });
    expect(issued.status).toBe(200);
    expect((await issued.json<StatementDetail>()).lines[0]).toMatchObject({ id: line.id, quantity: 3, amountCents: 300 });
    expect(await (await api(`invoices/lines/${line.id}`, { token: admin })).json<InvoiceLine>()).toMatchObject({ status: 'invoiced', version: 4 });
  });

  it('counts a void once on the statement, which keeps its total', async () => {
    const statement = await newStatement(admin);
    const issued = await api(`invoices/gifs/statements/${statement.id}`, { method: 'PATCH', token: admin, json: { status: 'issued' } });
    expect((await issued.json<StatementDetail>()).version).toBe(2);
    const voided = await api(`invoices/gifs/statements/${statement.id}`, { method: 'PATCH', token: admin, json: { status: 'void', reason: 'Wrong month' }, headers: { 'if-match': '"2"' } });
    expect(voided.status).toBe(200);
    expect(await voided.json<StatementDetail>()).toMatchObject({ status: 'void', totalCents: statement.totalCents, version: 3 });
  });

  it('counts a password change on the user', async () => {
    const user = await createUser();
    const token = await login(user);
    const res = await api('users/change-password', { method: 'PATCH', token, json: { id: user.id, newPassword: 'a much longer passphrase', confirmPassword: 'a much longer passphrase' } });
    expect(res.status).toBe(200);
    expect((await (await api(`users/${user.id}`, { token: admin })).json<User>()).version).toBe(2);
  });

  it('puts a stale version ahead of other refusals: 412, not the 409 of a move already made', async () => {
    const statement = await newStatement(admin);
    expect((await api(`invoices/gifs/statements/${statement.id}`, { method: 'PATCH', token: admin, json: { status: 'issued' } })).status).toBe(200);
    const again = await api(`invoices/gifs/statements/${statement.id}`, { method: 'PATCH', token: admin, json: { status: 'issued' }, headers: { 'if-match': '"1"' } });
    expect(again.status).toBe(412);
    expect(await again.json<StatementDetail>()).toMatchObject({ status: 'issued', version: 2 });
  });

  it('keeps the last-admin rule when the version matches', async () => {
    const { user, token } = await signedIn();
    // Only this admin stays active: every other active admin is made staff straight in D1 for
    // the length of the check, then restored.
    const others = (await env.DB.prepare("SELECT id FROM users WHERE role = 'admin' AND is_active = 1 AND id <> ?1").bind(user.id).all<{ id: number }>()).results.map((row) => row.id);
    const marks = others.map(() => '?').join(', ');
    if (others.length) await env.DB.prepare(`UPDATE users SET role = 'staff' WHERE id IN (${marks})`).bind(...others).run();
    try {
      const current = await (await api(`users/${user.id}`, { token })).json<User>();
      const res = await api('users', { method: 'PATCH', token, json: { id: user.id, role: 'staff' }, headers: { 'if-match': `"${current.version}"` } });
      expect(res.status).toBe(409);
    } finally {
      if (others.length) await env.DB.prepare(`UPDATE users SET role = 'admin' WHERE id IN (${marks})`).bind(...others).run();
    }
  });
});
