import { createExecutionContext, env } from 'cloudflare:test';
import { describe, expect, inject, it } from 'vitest';
import { version } from '../../package.json';
import { createApp } from '../../src/worker/index';
import { appFetch, ORIGIN, readJson } from './support';

interface Health {
  status: string;
  version: string;
  api: 'embedded' | 'upstream';
  checks: Record<string, { ok: boolean; ms: number }>;
}

const app = createApp();
const healthWith = (bindings: Partial<typeof env>) =>
  app.fetch(new Request(`${ORIGIN}/healthz`), { ...env, ...bindings }, createExecutionContext());

describe('GET /healthz', () => {
  it('answers 200 without a token when the database answers', async () => {
    const { status, headers, body } = await readJson<Health>(await appFetch(`${ORIGIN}/healthz`));
    expect(status).toBe(200);
    expect(body).toEqual({ status: 'ok', version, api: 'embedded', checks: { db: { ok: true, ms: expect.any(Number) } } });
    expect(headers.get('cache-control')).toBe('no-store');
  });

  it('answers 503 naming the database check when D1 fails', async () => {
    const broken = { prepare: () => ({ first: () => Promise.reject(new Error('D1_ERROR: disk I/O at /var/secret/db')) }) };
    const { status, text, body } = await readJson<Health>(await healthWith({ DB: broken as unknown as D1Database }));
    expect(status).toBe(503);
    expect(body).toMatchObject({ status: 'unavailable', api: 'embedded', checks: { db: { ok: false } } });
    expect(text).not.toMatch(/secret|D1_ERROR|Error/);
  });

  it('reports the upstream when one is configured and it answers', async () => {
    const { status, body } = await readJson<Health>(await healthWith({ UPSTREAM_API_URL: inject('upstreamUrl') }));
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'ok', api: 'upstream', checks: { upstream: { ok: true } } });
    expect(body.checks).not.toHaveProperty('db');
  });

  it('answers 503 within about 2 s when the upstream does not answer, without naming its host', async () => {
    // The probe asks for <base>/v1/, which this base turns into the test upstream's 'hang' route.
    const hanging = `${inject('upstreamUrl')}/v1/hang`;
    const started = Date.now();
    const { status, text, body } = await readJson<Health>(await healthWith({ UPSTREAM_API_URL: hanging }));
    expect(status).toBe(503);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(body.checks.upstream).toMatchObject({ ok: false, ms: expect.any(Number) });
    expect(text).not.toContain('127.0.0.1');
  });

  it('answers 503 when the upstream refuses connections', async () => {
    const { status, body } = await readJson<Health>(await healthWith({ UPSTREAM_API_URL: inject('closedUrl') }));
    expect(status).toBe(503);
    expect(body.checks.upstream?.ok).toBe(false);
  });
});
