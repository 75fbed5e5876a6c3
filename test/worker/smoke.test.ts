import { SELF } from 'cloudflare:test';
import { expect, it } from 'vitest';

it('answers the API through the passthrough', async () => {
  const res = await SELF.fetch('https://app.test/api/v1/users');
  expect(res.status).toBe(401);
  expect(res.headers.get('x-request-id')).toBeTruthy();
});
