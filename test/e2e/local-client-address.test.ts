import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { baseUrl } from './fixtures';

// Security review (docs/decisions.md#the-security-review), finding 13, in the local runtime itself (`npm start`: Miniflare, which keeps a
// CF-Connecting-IP the client sends): the limiter must not let a client pick a fresh bucket.
const attempt = (email: string, address?: string) =>
  fetch(`${baseUrl()}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(address ? { 'cf-connecting-ip': address } : {}) },
    body: JSON.stringify({ username: email, password: 'a wrong guess', audience: 'staff-app' }),
  });

it('counts sign-in failures for an account together whatever CF-Connecting-IP the client sends', async () => {
  const email = `nobody-${randomUUID().slice(0, 8)}@example.com`;
  for (let i = 1; i <= 5; i++) expect((await attempt(email, `198.51.100.${i}`)).status).toBe(401);
  expect((await attempt(email, '198.51.100.200')).status).toBe(429);
  expect((await attempt(email)).status).toBe(429);
});

it('gives requests without an address no shared bucket: other accounts are not blocked', async () => {
  for (let i = 0; i < 25; i++) expect((await attempt(`stranger-${i}-${randomUUID().slice(0, 6)}@example.com`)).status).toBe(401);
});
