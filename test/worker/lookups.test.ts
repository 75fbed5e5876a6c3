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
