import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signIn } from '../../src/client/lib/auth-store';
import { apiPath, callApi } from '../../src/client/lib/endpoints';

describe('apiPath', () => {
  it('fills the path values of the contract key, encoded', () => {
    expect(apiPath('GET /tickets/:id/comments', { params: { id: 12 } })).toBe('tickets/12/comments');
    expect(apiPath('GET /invoices/:source/lines', { params: { source: 'gifs-sla' } })).toBe('invoices/gifs-sla/lines');
    expect(apiPath('GET /invoices/:source/lines', { params: { source: 'a/b?c' as 'autofi' } })).toBe('invoices/a%2Fb%3Fc/lines');
  });

  it('appends the query, leaving out empty values', () => {
    expect(apiPath('GET /tickets', { query: { page: 2, status: 'open', q: '', assigneeId: undefined, companyId: null } })).toBe('tickets?page=2&status=open');
    expect(apiPath('GET /dashboard/summary')).toBe('dashboard/summary');
    expect(apiPath('GET /audit.csv', { query: { entity: 'ticket', entityId: 3 } })).toBe('audit.csv?entity=ticket&entityId=3');
  });
});

describe('callApi', () => {
  const fetchMock = vi.fn<typeof fetch>();

  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    signIn({ token: 'tok', firstName: 'A', surname: 'B', email: 'a@b.c', userId: 7, role: 'staff' });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('sends the key’s method to its path with the body as JSON', async () => {
    fetchMock.mockResolvedValue(new Response(JSON.stringify({ id: 5, title: 'T' }), { status: 200 }));
    await expect(callApi('PATCH /tickets/:id', { params: { id: 5 }, body: { title: 'T' } })).resolves.toEqual({ id: 5, title: 'T' });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/v1/tickets/5');
    expect(init?.method).toBe('PATCH');
    expect(init?.body).toBe('{"title":"T"}');
    expect((init?.headers as Record<string, string>).authorization).toBe('Bearer tok');
  });

  it('sends a call without arguments as a bare request, and sign-in without the token', async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
    await callApi('POST /auth/logout');
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe('POST');
    expect(fetchMock.mock.calls[0]?.[1]?.body).toBeUndefined();

    fetchMock.mockResolvedValue(new Response('{}', { status: 200 }));
    await callApi('POST /auth/login', { body: { username: 'a@b.c', password: 'x', audience: 'app' }, authenticated: false });
    expect((fetchMock.mock.calls[1]?.[1]?.headers as Record<string, string>).authorization).toBeUndefined();
  });
});
