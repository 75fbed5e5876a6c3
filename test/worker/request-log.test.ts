import { createExecutionContext, env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/worker/index';
import type { RequestLogLine } from '../../src/worker/request-log';
import { ORIGIN, signedIn } from './support';

const lines: string[] = [];
const app = createApp({ log: (line) => lines.push(line) });

const call = async (path: string, init: RequestInit & { token?: string } = {}) => {
  const { token, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (token) headers.set('authorization', `Bearer ${token}`);
  const res = await app.fetch(new Request(`${ORIGIN}${path}`, { ...rest, headers }), env, createExecutionContext());
  await res.arrayBuffer();
  return res;
};

const logged = () => lines.map((line) => JSON.parse(line) as RequestLogLine);

beforeEach(() => {
  lines.length = 0;
});

describe('request log', () => {
  it('writes one JSON line per API request with the route pattern, status, time and user', async () => {
    const { user, token } = await signedIn();
    lines.length = 0;
    const res = await call(`/api/v1/users/${user.id}?component=secret-query-value`, { token });
    expect(res.status).toBe(200);
    expect(lines).toHaveLength(1);
    expect(logged()[0]).toEqual({
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      requestId: res.headers.get('x-request-id'),
      method: 'GET',
      route: '/api/v1/users/:id',
      status: 200,
      ms: expect.any(Number),
      userId: user.id,
    });
  });

  it('logs refused and unknown requests without the raw address', async () => {
    await call('/api/v1/tickets/12345');
    await call('/api/v1/no-such-thing/98765/a.b@c');
    const [refused, unknown] = logged();
    expect(refused).toMatchObject({ route: '/api/v1/tickets/:id', status: 401, userId: null });
    expect(unknown?.status).toBe(404);
    expect(unknown?.route).not.toMatch(/98765|a\.b@c/);
  });

  it('never writes a body, a token, a password or a query value', async () => {
    const { user, token } = await signedIn();
    lines.length = 0;
    await call('/api/v1/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': '203.0.113.99' },
      body: JSON.stringify({ username: user.email, password: user.password, audience: env.APP_AUDIENCE }),
    });
    await call('/api/v1/tickets?q=needle-in-the-query', { token });
    expect(logged().map((line) => line.route)).toEqual(['/api/v1/auth/login', '/api/v1/tickets']);
    const text = lines.join('\n');
    for (const secret of [user.password, user.email, token, 'needle-in-the-query', '203.0.113.99']) {
      expect(text).not.toContain(secret);
    }
  });

  it('does not log pages or the health check', async () => {
    await call('/healthz');
    expect(lines).toHaveLength(0);
  });
});
