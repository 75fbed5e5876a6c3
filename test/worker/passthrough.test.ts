import { createExecutionContext, env } from 'cloudflare:test';
import { describe, expect, inject, it } from 'vitest';
import { MAX_REQUEST_BODY_BYTES } from '../../src/shared/constants';
import { createApp } from '../../src/worker/index';
import { trickle } from './slow-body';
import { api, expectError, readJson, sleep } from './support';
import {
  BIG_BODY_BYTES,
  HOP_RESPONSE_HEADERS,
  TEXT_BODY,
  statusBody,
  type CountReply,
  type EchoReply,
} from './upstream-contract';

// The passthrough against a real HTTP server (upstream-server.global.ts), with a short timeout.
const TIMEOUT_MS = 300;
const app = createApp({ timeoutMs: TIMEOUT_MS });
// Uploading 10 MB to the upstream counts against the timeout, and takes longer than 0.3 s on a busy machine.
const patientApp = createApp({ timeoutMs: 10_000 });
const upstreamUrl = inject('upstreamUrl');

interface ProxyOptions extends RequestInit {
  /** UPSTREAM_API_URL for this call; the running test upstream by default. */
  upstream?: string;
  /** Use the app with a 10 s timeout instead of the short one. */
  patient?: boolean;
}

/** A request to the Worker's /api/v1 with UPSTREAM_API_URL pointing at a real server. */
const proxy = (path: string, { upstream = upstreamUrl, patient = false, ...init }: ProxyOptions = {}) =>
  (patient ? patientApp : app).fetch(
    new Request(`https://app.test/api/v1/${path}`, init),
    { ...env, UPSTREAM_API_URL: upstream },
    createExecutionContext(),
  );

const echo = async (path = 'echo', init: ProxyOptions = {}) => {
  const res = await proxy(path, init);
  expect(res.status).toBe(200);
  return { res, seen: (await readJson<EchoReply>(res)).body };
};

/** How often the upstream saw `count/<key>`, read straight from it. */
const hitsOf = async (key: string) => ((await (await fetch(`${upstreamUrl}/hits/${key}`)).json()) as { hits: number }).hits;
const uniqueKey = () => crypto.randomUUID();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request forwarding', () => {
  it.each(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])('forwards %s with path and query', async (method) => {
    const body = method === 'GET' ? undefined : JSON.stringify({ method, note: 'ünïcode ✓' });
    const { seen } = await echo('echo/deep/path?b=2&a=x%20y&a=z', { method, body });
    expect(seen.method).toBe(method);
    expect(seen.url).toBe('/v1/echo/deep/path?b=2&a=x%20y&a=z');
    expect(seen.body).toBe(body ?? '');
  });

  it('forwards Authorization, Content-Type, Accept and If-Match', async () => {
    const { seen } = await echo('echo', {
      method: 'POST',
      headers: { authorization: 'Bearer abc.def.ghi', 'content-type': 'application/json', accept: 'application/json', 'if-match': '"7"' },
      body: '{}',
    });
    expect(seen.headers).toMatchObject({
      authorization: 'Bearer abc.def.ghi',
      'content-type': 'application/json',
      accept: 'application/json',
      'if-match': '"7"',
    });
  });

  it('does not forward cookies or other browser headers', async () => {
    const { seen } = await echo('echo', {
      headers: { cookie: 'session=browser-secret', origin: 'https://evil.test', 'x-internal-secret': 'nope' },
    });
    expect(seen.headers.cookie).toBeUndefined();
    expect(seen.headers.origin).toBeUndefined();
    expect(seen.headers['x-internal-secret']).toBeUndefined();
    expect(JSON.stringify(seen)).not.toContain('browser-secret');
  });

  it("forwards Cloudflare Access's header, and of the cookies only Access's own", async () => {
    const { seen } = await echo('echo', {
      headers: { 'cf-access-jwt-assertion': 'header.jwt.value', cookie: 'session=browser-secret; CF_Authorization=cookie.jwt.value; other=x' },
    });
    expect(seen.headers['cf-access-jwt-assertion']).toBe('header.jwt.value');
    expect(seen.headers.cookie).toBe('CF_Authorization=cookie.jwt.value');
    expect(JSON.stringify(seen)).not.toContain('browser-secret');
  });

  it('sets X-Forwarded-For from the connecting address, ignoring one the client sent', async () => {
    const { seen } = await echo('echo', {
      headers: { 'cf-connecting-ip': '198.51.100.23', 'x-forwarded-for': '6.6.6.6' },
    });
    expect(seen.headers['x-forwarded-for']).toBe('198.51.100.23');
    expect(seen.headers['x-forwarded-proto']).toBe('https');
    expect(seen.headers['x-forwarded-host']).toBe('app.test');
  });

  it.each([
    ['without a trailing slash', ''],
    ['with a trailing slash', '/'],
    ['with several trailing slashes', '//'],
  ])('builds the target URL %s on UPSTREAM_API_URL', async (_, suffix) => {
    const { seen } = await echo('echo?x=1', { upstream: `${upstreamUrl}${suffix}` });
    expect(seen.url).toBe('/v1/echo?x=1');
  });

  it('keeps a base path of UPSTREAM_API_URL', async () => {
    const { seen } = await echo('echo', { upstream: `${upstreamUrl}/provider/` });
    expect(seen.url).toBe('/provider/v1/echo');
  });
});

describe('X-Request-Id', () => {
  it('is created when absent, sent upstream and returned', async () => {
    const { res, seen } = await echo();
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(UUID);
    expect(seen.headers['x-request-id']).toBe(id);
  });

  it('is kept when the client sends a sane one', async () => {
    const { res, seen } = await echo('echo', { headers: { 'x-request-id': 'client-Req_42.x' } });
    expect(seen.headers['x-request-id']).toBe('client-Req_42.x');
    expect(res.headers.get('x-request-id')).toBe('client-Req_42.x');
  });

  it.each([
    ['contains spaces', 'has spaces in it'],
    ['has header-injection characters', 'abc;def<script>'],
    ['is 500 characters long', 'a'.repeat(500)],
  ])('is replaced when the client one %s', async (_, insane) => {
    const { res, seen } = await echo('echo', { headers: { 'x-request-id': insane } });
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(UUID);
    expect(seen.headers['x-request-id']).toBe(id);
  });

  it('is on error responses the Worker makes itself', async () => {
    const res = await proxy('hang', { headers: { 'x-request-id': 'trace-504' } });
    expect(res.status).toBe(504);
    expect(res.headers.get('x-request-id')).toBe('trace-504');
  });
});

describe('response passing', () => {
  it.each([201, 204, 404, 409, 500, 503])('passes status %i and its body through unchanged', async (code) => {
    const res = await proxy(`status/${code}`);
    const expected = statusBody(code);
    expect(res.status).toBe(code);
    expect(await res.text()).toBe(expected?.text ?? '');
    if (expected) expect(res.headers.get('content-type')).toBe(expected.contentType);
  });

  it('passes a non-JSON body and its content type through', async () => {
    const res = await proxy('text');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toBe(TEXT_BODY);
  });

  it('drops hop-by-hop headers and Set-Cookie, keeps the rest', async () => {
    const res = await proxy('hop');
    expect(res.status).toBe(200);
    for (const name of ['connection', 'keep-alive', 'set-cookie']) expect(res.headers.get(name), name).toBeNull();
    expect(res.headers.get('x-custom')).toBe(HOP_RESPONSE_HEADERS['x-custom']);
    expect(await res.json()).toEqual({ ok: true });
  });

  it('streams a large body through complete', async () => {
    const res = await proxy('big');
    expect(res.status).toBe(200);
    let bytes = 0;
    let everyByteIsX = true;
    for await (const chunk of res.body as ReadableStream<Uint8Array>) {
      bytes += chunk.byteLength;
      everyByteIsX &&= chunk.every((byte) => byte === 0x78);
    }
    expect(bytes).toBe(BIG_BODY_BYTES);
    expect(everyByteIsX).toBe(true);
  });

  it('never hands on a cut-off body as if it were complete', async () => {
    const res = await proxy('reset');
    const outcome =
      res.status === 502 ? 'bad gateway' : await res.text().then(() => 'complete body', () => 'body stream failed');
    expect(outcome).not.toBe('complete body');
    // The Worker keeps serving afterwards.
    expect((await proxy('text')).status).toBe(200);
  });
});

describe('failures and retries', () => {
  it('answers 504 JSON when the upstream does not answer in time', async () => {
    const started = Date.now();
    const res = await proxy('hang');
    const body = await expectError(res, 504);
    expect(body.message).toMatch(/did not answer/i);
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
  });

  it('answers 502 JSON when nothing listens at the upstream address', async () => {
    const body = await expectError(await proxy('echo', { upstream: inject('closedUrl') }), 502);
    expect(body.message).toMatch(/unreachable/i);
  });

  it('makes exactly one attempt on success', async () => {
    const key = uniqueKey();
    const { body } = await readJson<CountReply>(await proxy(`count/${key}`));
    expect(body).toEqual({ key, hits: 1, bytes: 0 });
    expect(await hitsOf(key)).toBe(1);
  });

  it.each([500, 502, 503])('makes exactly one attempt when the upstream answers %i', async (code) => {
    const key = uniqueKey();
    const res = await proxy(`count/${key}?status=${code}`, { method: 'POST', body: '{"retry":"me"}' });
    expect(res.status).toBe(code);
    expect(await res.text()).toBe(statusBody(code)?.text);
    await sleep(TIMEOUT_MS);
    expect(await hitsOf(key)).toBe(1);
  });

  it('makes exactly one attempt when the upstream times out', async () => {
    const key = uniqueKey();
    expect((await proxy(`count/${key}?hang=1`)).status).toBe(504);
    await sleep(TIMEOUT_MS * 2); // a retry after the timeout would show up here
    expect(await hitsOf(key)).toBe(1);
  });
});

describe('an upload that arrives slowly', () => {
  // An upload is streamed to its target (other bodies are read whole, against the 10 MB limit,
  // before they are passed on). Longer in all than the timeout, each piece well within it.
  const PIECES = 8;
  const GAP_MS = TIMEOUT_MS / 3;
  const uploadOf = (key: string) => `tickets/${key}/attachments`;

  it('is not cut off with 504 while it still arrives', async () => {
    const key = uniqueKey();
    const bytes = new Uint8Array(64 * 1024).fill(0x62);
    const res = await proxy(uploadOf(key), { method: 'POST', body: trickle(bytes, PIECES, GAP_MS) });
    expect((await readJson<CountReply>(res)).body).toEqual({ key, hits: 1, bytes: bytes.length });
  });

  it('still gets 504 when the answer is slow once the body has arrived', async () => {
    const key = uniqueKey();
    const body = trickle(new Uint8Array(1024), PIECES, GAP_MS);
    const res = await proxy(`${uploadOf(key)}?hang=1`, { method: 'POST', body });
    expect((await expectError(res, 504)).message).toMatch(/did not answer/i);
    expect(body.sent.whole).toBe(true);
    expect(await hitsOf(key)).toBe(1);
  });

  it('gets 504 when the body stops arriving for as long as the timeout', async () => {
    const key = uniqueKey();
    const body = trickle(new Uint8Array(1024), 2, TIMEOUT_MS * 3);
    await expectError(await proxy(uploadOf(key), { method: 'POST', body }), 504);
    expect(body.sent.whole).toBe(false);
  });

  it('forwards its declared length', async () => {
    const body = new TextEncoder().encode('{"slow":true}');
    const { seen } = await echo('echo', { method: 'POST', headers: { 'content-length': String(body.length) }, body: trickle(body, 3, 10) });
    expect(seen.headers['content-length']).toBe(String(body.length));
    expect(seen.body).toBe('{"slow":true}');
  });
});

describe('body size limit', () => {
  const overLimit = () => new Uint8Array(MAX_REQUEST_BODY_BYTES + 1).fill(0x61);

  /** A body with no Content-Length: the limit has to be enforced while reading. */
  const streamOf = (bytes: Uint8Array, chunkSize = 1024 * 1024) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += chunkSize) controller.enqueue(bytes.subarray(at, at + chunkSize));
        controller.close();
      },
    });

  it('answers 413 to a declared Content-Length over 10 MB without reaching the upstream', async () => {
    const key = uniqueKey();
    const body = overLimit();
    const res = await proxy(`count/${key}`, {
      method: 'POST',
      headers: { 'content-length': String(body.byteLength) },
      body,
    });
    // MAX_REQUEST_BODY_BYTES is 10 × 1024 × 1024: binary megabytes, as the 25 MiB upload limit says.
    expect((await expectError(res, 413)).message).toBe('Request body is larger than 10 MiB');
    expect(await hitsOf(key)).toBe(0);
  });

  it('answers 413 to a streamed body over 10 MB without reaching the upstream', async () => {
    const key = uniqueKey();
    const request = new Request(`https://app.test/api/v1/count/${key}`, { method: 'POST', body: streamOf(overLimit()) });
    expect(request.headers.get('content-length')).toBeNull();
    const res = await app.fetch(request, { ...env, UPSTREAM_API_URL: upstreamUrl }, createExecutionContext());
    await expectError(res, 413);
    expect(await hitsOf(key)).toBe(0);
  });

  it('forwards a body of exactly 10 MB', async () => {
    const key = uniqueKey();
    const body = streamOf(new Uint8Array(MAX_REQUEST_BODY_BYTES));
    const res = await proxy(`count/${key}`, { method: 'POST', body, patient: true });
    expect((await readJson<CountReply>(res)).body).toEqual({ key, hits: 1, bytes: MAX_REQUEST_BODY_BYTES });
  });
});

describe('the embedded provider (UPSTREAM_API_URL empty)', () => {
  it('answers an unknown API path with 404 JSON', async () => {
    const body = await expectError(await api('nope'), 404);
    expect(body).toEqual({ message: 'Not Found' });
  });

  it('answers /api/v1 itself with 404 JSON', async () => {
    await expectError(await api(''), 404);
  });

  it('gets and returns X-Request-Id too', async () => {
    expect((await api('nope')).headers.get('x-request-id')).toMatch(UUID);
    expect((await api('nope', { headers: { 'x-request-id': 'embedded-7' } })).headers.get('x-request-id')).toBe('embedded-7');
  });

  it('answers 413 to an oversized body before the provider reads it', async () => {
    const body = new Uint8Array(MAX_REQUEST_BODY_BYTES + 1);
    await expectError(await api('auth/login', { method: 'POST', body }), 413);
  });
});
