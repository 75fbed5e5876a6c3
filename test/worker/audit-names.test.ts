import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, Page } from '../../src/shared/types';
import { api, attemptLogin, createUser, freshIp, readJson, signedIn, type TestUser } from './support';

let admin: { user: TestUser; token: string };

const entries = async (query: string, token = admin.token) => {
  const { status, body } = await readJson<Page<AuditEntry>>(await api(`audit?${query}&pageSize=200`, { token }));
  expect(status).toBe(200);
  return body.items;
};

const send = async <T = Record<string, unknown>>(path: string, method: string, json?: unknown) => {
  const { status, body } = await readJson<T>(await api(path, { method, token: admin.token, json }));
  expect(status, JSON.stringify(body)).toBeLessThan(300);
  return body;
};

beforeAll(async () => {
  admin = await signedIn('admin');
});

describe('names in audit entries (docs/api.md, GET /audit)', () => {
  it('a user, a company, a category and a ticket by name, and the ids in the changes by name too', async () => {
    const person = await createUser({ firstName: 'Nadia', surname: 'Named' });
    const company = await send<{ id: number; name: string }>('companies', 'POST', { name: `Named Co ${crypto.randomUUID().slice(0, 8)}` });
    const category = await send<{ id: number; name: string }>('ticket-categories', 'POST', { name: `Named Cat ${crypto.randomUUID().slice(0, 8)}` });
    const ticket = await send<{ id: number }>('tickets', 'POST', { title: 'Named printer', companyId: company.id, categoryId: category.id, assigneeId: person.id });

    const [created] = await entries(`entity=ticket&entityId=${ticket.id}`);
    expect(created).toMatchObject({
      recordName: `#${ticket.id} Named printer`,
      names: {
        companyId: { [company.id]: company.name },
        categoryId: { [category.id]: category.name },
        assigneeId: { [person.id]: 'Nadia Named' },
        reporterId: { [admin.user.id]: `${admin.user.firstName} ${admin.user.surname}` },
      },
    });
    expect((await entries(`entity=company&entityId=${company.id}`))[0]?.recordName).toBe(company.name);
    expect((await entries(`entity=ticket_category&entityId=${category.id}`))[0]?.recordName).toBe(category.name);
    const made = await send<{ id: number }>('users', 'POST', { firstName: 'Una', surname: 'User', email: `una-${crypto.randomUUID()}@example.com`, password: 'Quiet-Harbour-42' });
    expect((await entries(`entity=user&entityId=${made.id}`))[0]?.recordName).toBe('Una User');
  });

  it('a statement by its number, such as GIFS-2031-07-1', async () => {
    await send('invoices/gifs-azure/lines', 'POST', { period: '2031-07', description: 'Azure', quantity: 1, unitPriceCents: 100, status: 'approved' });
    const statement = await send<{ id: number; number: string }>('invoices/gifs/statements', 'POST', { period: '2031-07' });
    expect(statement.number).toMatch(/^GIFS-2031-07-\d+$/);
    const history = await entries(`entity=statement&entityId=${statement.id}`);
    expect(history.map((entry) => entry.recordName)).toContain(statement.number);
  });

  it('a deleted company keeps the name its delete entry recorded', async () => {
    const name = `Gone Co ${crypto.randomUUID().slice(0, 8)}`;
    const company = await send<{ id: number }>('companies', 'POST', { name });
    expect((await api(`companies/${company.id}`, { method: 'DELETE', token: admin.token })).status).toBe(204);
    const [removed, created] = await entries(`entity=company&entityId=${company.id}`);
    expect(removed).toMatchObject({ action: 'delete', recordName: name });
    // Only the delete holds the name; the create's record is gone from its table.
    expect(created?.recordName ?? null).toBe(null);
  });

  it('a sign-in by the person, a failed one with the email tried; unknown emails stay in the admin-only log', async () => {
    const person = await createUser({ firstName: 'Sina', surname: 'Signin' });
    expect((await attemptLogin(person, { ip: freshIp() })).status).toBe(200);
    expect((await attemptLogin({ ...person, password: 'wrong' }, { ip: freshIp() })).status).toBe(401);
    const unknown = `nobody-${crypto.randomUUID()}@example.com`;
    expect((await attemptLogin({ email: unknown, password: 'x' }, { ip: freshIp() })).status).toBe(401);

    const [failed, success] = await entries(`entity=session&entityId=${person.id}`);
    expect(success).toMatchObject({ action: 'login', recordName: 'Sina Signin' });
    expect(failed).toMatchObject({ action: 'login_failed', actorId: null, recordName: 'Sina Signin', changes: { email: [null, person.email] } });
    const log = await entries('entity=session&action=login_failed');
    expect(log.find((entry) => entry.changes.email?.[1] === unknown)).toMatchObject({ entityId: null, recordName: null });

    // Another role reads a person's sign-ins (one record's history), never the unknown emails.
    const { token } = await signedIn('staff');
    const seen = await entries(`entity=session&entityId=${person.id}`, token);
    expect(seen.map((entry) => entry.changes.email?.[1]).filter(Boolean)).toEqual([person.email]);
    expect((await api('audit?entity=session&action=login_failed', { token })).status).toBe(403);
  });
});
