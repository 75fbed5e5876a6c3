import { createExecutionContext, env } from 'cloudflare:test';
import { describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/worker/index';
import { ORIGIN, api, appFetch, attemptLogin, expectError, readJson, signedIn } from './support';

// Security review (docs/decisions.md#the-security-review), findings 5, 6, 9 and 11: what every /api answer carries, how much a 400 may echo,
// which request ids are kept, and that /api paths never fall through to the app's page.

describe('Cache-Control: no-store on every /api answer (finding 5)', () => {
  const answers: [label: string, status: number, send: () => Promise<Response>][] = [
    ['the login answer that carries the token', 200, async () => attemptLogin((await signedIn()).user)],
    ['a user list', 200, async () => api('users', { token: (await signedIn()).token })],
    ['a CSV export', 200, async () => api('invoices/autofi/lines.csv?period=2026-01', { token: (await signedIn()).token })],
    ['a refused sign-in', 401, () => attemptLogin({ email: 'nobody@example.com', password: 'nope' })],
    ['a call without a token', 401, () => api('users')],
    ['a bad body', 400, () => api('auth/login', { method: 'POST', body: '{' })],
    ['an unknown /api/v1 path', 404, () => api('nope')],
    ['an /api path outside v1', 404, () => appFetch(`${ORIGIN}/api/v2/x`)],
    ['a body over the limit', 413, () => api('auth/login', { method: 'POST', body: new Uint8Array(10 * 1024 * 1024 + 1) })],
  ];

  it.each(answers)('%s (%i)', async (_, status, send) => {
    const res = await send();
    await res.arrayBuffer();
    expect(res.status).toBe(status);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('a 400 stays small (finding 6)', () => {
  const KEYS = 600_000;
  const hugeBody = () => {
    const parts = ['"username":"a@example.com","password":"x","audience":"staff-app"'];
    for (let i = 0; i < KEYS; i++) parts.push(`"k${i}":0`);
    return `{${parts.join(',')}}`;
  };

  it('a login body of 600,000 unknown keys gets a 400 under 8 kB that names at most 20', async () => {
    const body = hugeBody();
    expect(body.length).toBeGreaterThan(5_000_000);
    const res = await api('auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const { status, text, body: error } = await readJson<{ message: string; errors?: Record<string, string[]> }>(res);
    expect(status).toBe(400);
    expect(new TextEncoder().encode(text).length).toBeLessThan(8 * 1024);
    const named = error.message.match(/\bk\d+\b/g) ?? [];
    expect(named.length).toBeGreaterThan(0);
    expect(named.length).toBeLessThanOrEqual(20);
    expect(error.message).toContain(`${KEYS - 20} more`);
  });

  it('cuts long unknown field names short', async () => {
    const res = await api('auth/login', {
      method: 'POST',
      json: { username: 'a@example.com', password: 'x', audience: 'staff-app', ['n'.repeat(100_000)]: 1 },
    });
    const { status, text } = await readJson(res);
    expect(status).toBe(400);
    expect(text.length).toBeLessThan(1024);
  });

  it('still names a single unknown field', async () => {
    const error = await expectError(await api('auth/login', { method: 'POST', json: { username: 'a@example.com', password: 'x', audience: 'staff-app', isAdmin: true } }), 400);
    expect(error.message).toBe('Unknown field: isAdmin');
  });

  it('treats inherited names such as constructor as unknown fields', async () => {
    const res = await api('auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"username":"a@example.com","password":"x","audience":"staff-app","constructor":1,"__proto__":2}' });
    const error = await expectError(res, 400);
    expect(error.message).toMatch(/constructor/);
  });
});

describe('X-Request-Id (finding 9)', () => {
  const upstream = { ...env, UPSTREAM_API_URL: inject('upstreamUrl') };
  const echo = async (id: string) => {
    const res = await createApp().fetch(new Request(`${ORIGIN}/api/v1/echo`, { headers: { 'x-request-id': id } }), upstream, createExecutionContext());
    const seen = ((await res.json()) as { headers: Record<string, string> }).headers['x-request-id'];
    return { answered: res.headers.get('x-request-id'), seen };
  };

  it.each(['abcd1234', 'trace.ID-42_x', 'a'.repeat(64)])('keeps a well-formed one: %s', async (id) => {
    expect(await echo(id)).toEqual({ answered: id, seen: id });
  });

  it.each([
    ['7 characters', 'abc1234'],
    ['65 characters', 'a'.repeat(65)],
    ['an equals sign', 'client-Req_42='],
    ['a space', 'abcd 1234'],
    ['a slash', 'abcd/1234'],
    ['non-ASCII letters', 'abcdéfgh1'],
  ])('replaces one with %s by a new one, answered and forwarded alike', async (_, id) => {
    const { answered, seen } = await echo(id);
    expect(answered).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(seen).toBe(answered);
  });
});

describe('/api paths that are not /api/v1/… answer a JSON 404 (finding 11)', () => {
  // A stand-in asset server that answers every path with the app's page, as the SPA fallback does.
  const page = { fetch: async () => new Response('<!doctype html><div id="root"></div>', { headers: { 'content-type': 'text/html' } }) };
  const get = (path: string) => createApp().fetch(new Request(`${ORIGIN}${path}`), { ...env, ASSETS: page }, createExecutionContext());

  it.each(['/api/v2/x', '/API/V1/users/1', '/Api/v1/users', '/api', '/api/', '/api/v1', '/API', '/api/v1x/users'])('%s', async (path) => {
    const res = await get(path);
    const error = await expectError(res, 404);
    expect(error.message).toBe('Not Found');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('the control: a page path still gets the app’s page', async () => {
    const res = await get('/tickets/');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<div id="root">');
    expect(res.headers.get('cache-control')).not.toBe('no-store');
  });
});
