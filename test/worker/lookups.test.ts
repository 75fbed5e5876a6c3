import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, signedIn } from './support';

let token: string;
beforeAll(async () => {
  ({ token } = await signedIn());
});

const json = async <T = Record<string, unknown>>(res: Response) => (await res.json()) as T;

describe.each([
  { path: 'companies', extra: { code: 'ACME', email: 'billing@acme.test', phone: '+1 555', address: '1 Road\nTown' } },
  { path: 'ticket-categories', extra: { description: 'Things that break' } },
])('$path', ({ path, extra }) => {
  const name = (suffix: string) => `${path} ${suffix} ${crypto.randomUUID().slice(0, 6)}`;

  it('creates, reads, lists with q, edits and deletes', async () => {
    const created = await api(path, { method: 'POST', token, json: { name: name('alpha'), ...extra } });
    expect(created.status).toBe(201);
    const record = await json<{ id: number; name: string; isActive: boolean }>(created);
    expect(record).toMatchObject({ name: expect.stringContaining('alpha'), isActive: true, ...extra });

    expect(await json(await api(`${path}/${record.id}`, { token }))).toMatchObject({ id: record.id, ...extra });

    const list = await json<{ items: { id: number }[]; total: number; page: number; pageSize: number }>(
      await api(`${path}?q=${encodeURIComponent(record.name.slice(-6))}`, { token }),
    );
    expect(list).toMatchObject({ total: 1, page: 1, pageSize: 25 });
    expect(list.items.map((item) => item.id)).toEqual([record.id]);

    const edited = await api(`${path}/${record.id}`, { method: 'PATCH', token, json: { name: `${record.name} v2`, isActive: false } });
    expect(edited.status).toBe(200);
    expect(await json(edited)).toMatchObject({ name: `${record.name} v2`, isActive: false, ...extra });

    expect((await api(`${path}/${record.id}`, { method: 'DELETE', token })).status).toBe(204);
    expect((await api(`${path}/${record.id}`, { token })).status).toBe(404);
  });

  it('refuses a duplicate name, whatever its case, with 409', async () => {
    const first = name('dup');
    expect((await api(path, { method: 'POST', token, json: { name: first } })).status).toBe(201);
    const again = await api(path, { method: 'POST', token, json: { name: first.toUpperCase() } });
    expect(again.status).toBe(409);
    const problem = await json(again);
    expect(problem).toMatchObject({ title: 'Conflict', status: 409, detail: expect.stringContaining('already exists') });
    // The form shows it under its Name field.
    expect(problem).toMatchObject({ errors: { name: [expect.stringContaining('already exists')] } });
  });

  it('refuses renaming to a name another record has with 409 naming the field', async () => {
    const taken = name('taken');
    expect((await api(path, { method: 'POST', token, json: { name: taken } })).status).toBe(201);
    const other = await json<{ id: number }>(await api(path, { method: 'POST', token, json: { name: name('other') } }));
    const renamed = await api(`${path}/${other.id}`, { method: 'PATCH', token, json: { name: taken } });
    expect(renamed.status).toBe(409);
    expect(await json(renamed)).toMatchObject({ status: 409, errors: { name: [expect.stringContaining('already exists')] } });
  });

  it.each([
    ['no name', {}],
    ['blank name', { name: '   ' }],
    ['number name', { name: 42 }],
    ['unknown field', { name: 'x', colour: 'red' }],
    ['too long', { name: 'x'.repeat(200_000) }],
    ['control character', { name: 'bad\u0007name' }],
  ])('answers 400 for %s', async (_label, body) => {
    const res = await api(path, { method: 'POST', token, json: body });
    expect(res.status).toBe(400);
    expect(await json(res)).toHaveProperty('message');
  });

  it.each(['abc', '0', '-1', '1.5'])('answers 400 for the id %s and 404 for an unknown one', async (id) => {
    expect((await api(`${path}/${id}`, { token })).status).toBe(400);
    expect((await api(`${path}/999999`, { token })).status).toBe(404);
    expect((await api(`${path}/999999`, { method: 'DELETE', token })).status).toBe(404);
    expect((await api(`${path}/999999`, { method: 'PATCH', token, json: { name: 'x' } })).status).toBe(404);
  });

  it('needs a token', async () => {
    expect((await api(path)).status).toBe(401);
  });
});

it('refuses to delete a company or category that tickets use, and keeps it', async () => {
  const company = await json<{ id: number }>(await api('companies', { method: 'POST', token, json: { name: `Used ${crypto.randomUUID()}` } }));
  const category = await json<{ id: number }>(
    await api('ticket-categories', { method: 'POST', token, json: { name: `Used ${crypto.randomUUID()}` } }),
  );
  const ticket = await api('tickets', { method: 'POST', token, json: { title: 'Uses both', companyId: company.id, categoryId: category.id } });
  expect(ticket.status).toBe(201);

  for (const path of [`companies/${company.id}`, `ticket-categories/${category.id}`]) {
    const res = await api(path, { method: 'DELETE', token });
    expect(res.status).toBe(409);
    expect(await json(res)).toMatchObject({ status: 409, detail: expect.stringContaining('tickets') });
    expect((await api(path, { token })).status).toBe(200);
  }
  expect(await env.DB.prepare('SELECT count(*) AS n FROM companies WHERE id = ?1').bind(company.id).first('n')).toBe(1);
});

describe('GET :id/uses, asked before a delete', () => {
  it('names what still uses a company or category, empty once nothing does; 404 for an unknown id', async () => {
    const { token: staffToken } = await signedIn('staff');
    const company = await json<{ id: number }>(await api('companies', { method: 'POST', token, json: { name: `Uses ${crypto.randomUUID()}` } }));
    const category = await json<{ id: number }>(await api('ticket-categories', { method: 'POST', token, json: { name: `Uses ${crypto.randomUUID()}` } }));
    expect(await json(await api(`companies/${company.id}/uses`, { token }))).toEqual({ usedBy: [] });
    expect(await json(await api(`ticket-categories/${category.id}/uses`, { token }))).toEqual({ usedBy: [] });

    const ticket = await json<{ id: number }>(await api('tickets', { method: 'POST', token, json: { title: 'Uses', companyId: company.id, categoryId: category.id } }));
    await api('invoices/gifs-azure/lines', { method: 'POST', token, json: { period: '2031-06', description: 'Azure', quantity: 1, unitPriceCents: 100, companyId: company.id } });
    // Reading is open to every role, like the record itself.
    expect(await json(await api(`companies/${company.id}/uses`, { token: staffToken }))).toEqual({ usedBy: ['tickets', 'invoice lines'] });
    expect(await json(await api(`ticket-categories/${category.id}/uses`, { token }))).toEqual({ usedBy: ['tickets'] });

    await api(`tickets/${ticket.id}`, { method: 'PATCH', token, json: { categoryId: null } });
    expect(await json(await api(`ticket-categories/${category.id}/uses`, { token }))).toEqual({ usedBy: [] });
    expect((await api('companies/999999/uses', { token })).status).toBe(404);
    expect((await api('companies/abc/uses', { token })).status).toBe(400);
    expect((await api(`companies/${company.id}/uses`)).status).toBe(401);
  });
});

it('the in-use rule is part of the DELETE: racing a new ticket, either the delete or the ticket wins, never both', async () => {
  const rounds = await Promise.all(
    Array.from({ length: 12 }, async () => {
      const category = await json<{ id: number }>(await api('ticket-categories', { method: 'POST', token, json: { name: `Race ${crypto.randomUUID()}` } }));
      const [ticket, removed] = await Promise.all([
        api('tickets', { method: 'POST', token, json: { title: 'Race', categoryId: category.id } }),
        api(`ticket-categories/${category.id}`, { method: 'DELETE', token }),
      ]);
      return { id: category.id, ticket: ticket.status, removed: removed.status };
    }),
  );
  for (const round of rounds) {
    expect([204, 409]).toContain(round.removed);
    const left = await env.DB.prepare('SELECT count(*) AS n FROM ticket_categories WHERE id = ?1').bind(round.id).first('n');
    const users = await env.DB.prepare('SELECT count(*) AS n FROM tickets WHERE category_id = ?1').bind(round.id).first('n');
    if (round.removed === 204) {
      expect(left).toBe(0);
      expect(users).toBe(0);
      expect(round.ticket).toBeGreaterThanOrEqual(400);
    } else {
      expect(left).toBe(1);
      expect(users).toBe(1);
    }
    // The delete's audit entry exists exactly when the delete happened.
    const entries = await env.DB.prepare("SELECT count(*) AS n FROM audit_log WHERE entity = 'ticket_category' AND entity_id = ?1 AND action = 'delete'").bind(round.id).first('n');
    expect(entries).toBe(round.removed === 204 ? 1 : 0);
  }
});

it('a refused delete names what uses the row and leaves no audit entry, however the use was written', async () => {
  const company = await json<{ id: number }>(await api('companies', { method: 'POST', token, json: { name: `Direct ${crypto.randomUUID()}` } }));
  await env.DB.prepare("INSERT INTO tickets (title, company_id) VALUES ('Direct', ?1)").bind(company.id).run();
  const res = await api(`companies/${company.id}`, { method: 'DELETE', token });
  expect(res.status).toBe(409);
  expect(await json(res)).toMatchObject({ detail: 'This company is still used by tickets' });
  expect(await env.DB.prepare("SELECT count(*) AS n FROM audit_log WHERE entity = 'company' AND entity_id = ?1 AND action = 'delete'").bind(company.id).first('n')).toBe(0);
});
