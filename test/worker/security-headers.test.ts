import { createExecutionContext, env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { MAX_REQUEST_BODY_BYTES } from '../../src/shared/constants';
import { createApp } from '../../src/worker/index';
import { api, attemptLogin, signedIn } from './support';

const HALF_A_YEAR_SECONDS = 182 * 24 * 60 * 60;

/** `default-src 'self'; img-src 'self' data:` → { 'default-src': ["'self'"], 'img-src': [...] } */
const cspDirectives = (res: Response) =>
  new Map(
    (res.headers.get('content-security-policy') ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name = '', ...values]) => [name, values]),
  );

const responses: [label: string, status: number, send: () => Promise<Response>][] = [
  ['a signed-in list call', 200, async () => api('users', { token: (await signedIn()).token })],
  ['a successful login', 200, async () => attemptLogin((await signedIn()).user)],
  ['a call without a token', 401, () => api('users')],
  ['an unknown API path', 404, () => api('nope')],
  ['a malformed body', 400, () => api('auth/login', { method: 'POST', body: '{not json' })],
  ['a body over the limit', 413, () => api('auth/login', { method: 'POST', body: new Uint8Array(MAX_REQUEST_BODY_BYTES + 1) })],
];

describe.each(responses)('%s (%i)', (_, status, send) => {
  const sent = async () => {
    const res = await send();
    await res.arrayBuffer();
    expect(res.status).toBe(status);
    return res;
  };

  it('has a Content-Security-Policy that forbids framing and plugins', async () => {
    const csp = cspDirectives(await sent());
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')?.[0]).toBe("'self'");
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    // Frames of the page's own object URLs only (a PDF attachment's preview), no other site's.
    expect(csp.get('frame-src')).toEqual(["'self'", 'blob:']);
  });

  it('has HSTS, nosniff, a referrer policy and a permissions policy', async () => {
    const res = await sent();
    const hstsMaxAge = /^max-age=(\d+)/.exec(res.headers.get('strict-transport-security') ?? '')?.[1];
    expect(Number(hstsMaxAge)).toBeGreaterThanOrEqual(HALF_A_YEAR_SECONDS);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('permissions-policy')).toMatch(/(^|, )camera=\(\)/);
    expect(res.headers.get('permissions-policy')).toMatch(/(^|, )geolocation=\(\)/);
  });
});

// The Worker under test is what ships; only Vite's dev server (`npm run dev`) may allow inline
// scripts for its React Refresh preamble. Vitest runs with import.meta.env.DEV = true but MODE 'test'.
it("sends script-src 'self' without 'unsafe-inline'", async () => {
  expect(cspDirectives(await api('nope')).get('script-src')).toEqual(["'self'"]);
});

// Pages come from the ASSETS binding, which has no built files in this pool (the browser tests check
// real pages); whatever the Worker answers for a page path still carries the headers.
it('puts the headers on non-API paths too', async () => {
  // The test pool has no built bundle, so a stand-in ASSETS binding answers with the app's page.
  const assets = { fetch: async () => new Response('<!doctype html>', { headers: { 'content-type': 'text/html' } }) };
  const res = await createApp().fetch(
    new Request('https://app.test/login/'),
    { ...env, ASSETS: assets },
    createExecutionContext(),
  );
  expect(res.status).toBe(200);
  expect(await res.text()).toBe('<!doctype html>');
  expect(cspDirectives(res).get('frame-ancestors')).toEqual(["'none'"]);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
});
