import { createExecutionContext, env } from 'cloudflare:test';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/worker/index';
import { forgetAccessKeys } from '../../src/worker/provider/auth/access';
import { asInvocation } from './d1-limits';
import { attemptLogin, base64UrlEncode, createUser, decodeJwt, expectError, freshIp, ORIGIN, readJson } from './support';

// Cloudflare Access sign-in (docs/api.md#cloudflare-access) against keys made here: the team's
// certs endpoint is a stub of globalThis.fetch, so nothing leaves the test.

const AUD = 'aud-tag-0123456789abcdef';
const app = createApp({ log: () => {} });

interface Signer {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  jwk: JWK;
}

const makeSigner = async (kid: string): Promise<Signer> => {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  return { kid, privateKey, publicKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
};

let teamCount = 0;

/** A fresh Access team: its own origin (so no key cache is shared), keys it serves, and the fetches made of them. */
const makeTeam = async () => {
  teamCount += 1;
  const origin = `https://team${teamCount}-${crypto.randomUUID().slice(0, 6)}.cloudflareaccess.com`;
  const signer = await makeSigner('key-1');
  const team = {
    origin,
    signer,
    served: [signer.jwk],
    fetches: 0,
    vars: { ACCESS_TEAM_DOMAIN: origin, ACCESS_AUD: AUD } as Record<string, string>,
    /** A token as Access issues it for `email`, with `claims` and `header` changed as given. */
    token: (email: string | null, claims: JWTPayload = {}, key: Signer = signer) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ ...(email === null ? {} : { email }), type: 'app', ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: key.kid })
        .setIssuer(typeof claims.iss === 'string' ? claims.iss : origin)
        .setAudience(claims.aud ?? [AUD])
        .setIssuedAt(now)
        .setNotBefore(claims.nbf ?? now)
        .setExpirationTime(claims.exp ?? now + 3600)
        .setSubject('access-subject')
        .sign(key.privateKey);
    },
  };
  teams.set(`${origin}/cdn-cgi/access/certs`, team);
  return team;
};

type Team = Awaited<ReturnType<typeof makeTeam>>;
const teams = new Map<string, Team>();

beforeEach(() => {
  forgetAccessKeys();
  // The only outbound fetch these calls make is for a team's keys.
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = input instanceof Request ? input.url : String(input);
    const team = teams.get(url);
    if (!team) throw new Error(`unexpected fetch of ${url}`);
    team.fetches += 1;
    return Response.json({ keys: team.served, public_cert: { kid: team.signer.kid, cert: '' } });
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

interface CallOptions {
  vars?: Record<string, string>;
  token?: string;
  cookie?: string;
  json?: unknown;
}

/** A call to the app through the Worker as the browser makes it, with Access's header or cookie. */
const call = (method: 'GET' | 'POST', path: string, { vars = {}, token, cookie, json }: CallOptions = {}) => {
  const headers = new Headers({ 'cf-connecting-ip': freshIp() });
  if (token) headers.set('cf-access-jwt-assertion', token);
  if (cookie) headers.set('cookie', cookie);
  if (json !== undefined) headers.set('content-type', 'application/json');
  const request = new Request(`${ORIGIN}/api/v1/${path}`, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
  return asInvocation(() => app.fetch(request, { ...env, ...vars }, createExecutionContext()));
};

const who = (team: Team, options: Omit<CallOptions, 'vars'> = {}) => call('GET', 'auth/access', { vars: team.vars, ...options });
const signIn = (team: Team, options: Omit<CallOptions, 'vars' | 'json'> = {}, audience = env.APP_AUDIENCE) =>
  call('POST', 'auth/access', { vars: team.vars, json: { audience }, ...options });

/** The newest sign-in entries of the audit log about `userId` (or of nobody: null). */
const sessionEntries = async (userId: number | null) => {
  const { results } = await env.DB.prepare(
    `SELECT action, actor_id AS actorId, changes FROM audit_log WHERE entity = 'session' AND entity_id IS ?1 ORDER BY id DESC LIMIT 5`,
  )
    .bind(userId)
    .all<{ action: string; actorId: number | null; changes: string }>();
  return results.map((row) => ({ ...row, changes: JSON.parse(row.changes) as Record<string, unknown> }));
};

/** A token with the header and payload given and a signature made by `sign` over them. */
const handMade = async (header: Record<string, unknown>, payload: Record<string, unknown>, sign: (data: Uint8Array) => Promise<ArrayBuffer | null>) => {
  const data = `${base64UrlEncode(header)}.${base64UrlEncode(payload)}`;
  const signature = await sign(new TextEncoder().encode(data));
  const encoded = signature ? btoa(String.fromCharCode(...new Uint8Array(signature))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') : '';
  return `${data}.${encoded}`;
};

describe('GET auth/access', () => {
  it('names the person of a valid token, and answers 204 without one or with a bad one', async () => {
    const team = await makeTeam();
    const valid = await team.token('ada@example.com');
    const res = await who(team, { token: valid });
    expect(res.status).toBe(200);
    expect((await readJson(res)).body).toEqual({ email: 'ada@example.com' });

    expect((await who(team)).status).toBe(204);
    expect((await who(team, { token: 'not.a.token' })).status).toBe(204);
    expect((await who(team, { token: await team.token('ada@example.com', { aud: ['another-app'] }) })).status).toBe(204);
  });

  it('answers 204 when Access is not set up, whatever the request carries, and fetches no keys', async () => {
    const team = await makeTeam();
    const token = await team.token('ada@example.com');
    const partial: Record<string, string>[] = [{}, { ACCESS_TEAM_DOMAIN: team.origin }, { ACCESS_AUD: AUD }, { ACCESS_TEAM_DOMAIN: ' ', ACCESS_AUD: AUD }];
    for (const vars of partial) {
      const res = await call('GET', 'auth/access', { vars, token });
      expect(res.status, JSON.stringify(vars)).toBe(204);
    }
    expect(team.fetches).toBe(0);
  });

  it('answers 204 when the keys cannot be fetched', async () => {
    const team = await makeTeam();
    vi.mocked(globalThis.fetch).mockImplementation(async () => new Response('down', { status: 502 }));
    expect((await who(team, { token: await team.token('ada@example.com') })).status).toBe(204);
  });
});

describe('POST auth/access', () => {
  it('signs in the active account of the email, as POST auth/login answers, and logs it as an Access sign-in', async () => {
    const team = await makeTeam();
    const user = await createUser({ role: 'billing' });
    const res = await signIn(team, { token: await team.token(user.email.toUpperCase()) });
    const { status, body } = await readJson<{ token: string; email: string; userId: number; firstName: string; surname: string; role: string }>(res);
    expect(status).toBe(200);
    expect(body).toMatchObject({ email: user.email, userId: user.id, firstName: user.firstName, surname: user.surname, role: 'billing' });
    expect(decodeJwt(body.token).payload).toMatchObject({ sub: String(user.id), aud: env.APP_AUDIENCE });

    // The answer's token is a session like a password's.
    const out = await asInvocation(() =>
      app.fetch(new Request(`${ORIGIN}/api/v1/auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${body.token}` } }), env, createExecutionContext()),
    );
    expect(out.status).toBe(204);
    expect((await sessionEntries(user.id))[0]).toEqual({ action: 'login', actorId: user.id, changes: { method: [null, 'access'] } });
  });

  it('takes the CF_Authorization cookie when the header is absent; the header wins over it', async () => {
    const team = await makeTeam();
    const user = await createUser();
    const token = await team.token(user.email);
    const res = await signIn(team, { cookie: `theme=dark; CF_Authorization=${token}; other=1` });
    expect(res.status).toBe(200);
    expect((await readJson(res)).body).toMatchObject({ userId: user.id });
    expect((await who(team, { cookie: `CF_Authorization=${token}` })).status).toBe(200);

    await expectError(await signIn(team, { token: 'bad.header.token', cookie: `CF_Authorization=${token}` }), 401);
  });

  it('refuses an identity with no staff account: 403 naming the email, logged as a failed sign-in; no account is made', async () => {
    const team = await makeTeam();
    const email = `stranger-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const error = await expectError(await signIn(team, { token: await team.token(email) }), 403);
    expect(error.message).toBe(`No staff account for ${email}`);
    const entry = (await sessionEntries(null))[0];
    expect(entry).toEqual({ action: 'login_failed', actorId: null, changes: { email: [null, email], method: [null, 'access'] } });
    const made = await env.DB.prepare('SELECT count(*) AS n FROM users WHERE email = ?1').bind(email).first<{ n: number }>();
    expect(made?.n).toBe(0);
  });

  it('refuses a deactivated account: 403, logged against it', async () => {
    const team = await makeTeam();
    const user = await createUser({ isActive: false });
    const error = await expectError(await signIn(team, { token: await team.token(user.email) }), 403);
    expect(error.message).toBe(`No staff account for ${user.email}`);
    expect((await sessionEntries(user.id))[0]).toMatchObject({ action: 'login_failed', actorId: null });
  });

  it('answers 401 with no identity, and when Access is not set up', async () => {
    const team = await makeTeam();
    const user = await createUser();
    await expectError(await signIn(team), 401);
    const res = await call('POST', 'auth/access', { token: await team.token(user.email), json: { audience: env.APP_AUDIENCE } });
    await expectError(res, 401);
  });

  it('refuses a missing or unknown audience', async () => {
    const team = await makeTeam();
    const user = await createUser();
    const token = await team.token(user.email);
    expect((await expectError(await call('POST', 'auth/access', { vars: team.vars, token, json: {} }), 400)).message).toMatch(/Audience is required/);
    await expectError(await call('POST', 'auth/access', { vars: team.vars, token, json: { audience: 42 } }), 400);
    await expectError(await signIn(team, { token }, 'another-app'), 401);
  });

  it('answers 503 when the keys cannot be fetched', async () => {
    const team = await makeTeam();
    const user = await createUser();
    vi.mocked(globalThis.fetch).mockImplementation(async () => {
      throw new Error('connection refused');
    });
    await expectError(await signIn(team, { token: await team.token(user.email) }), 503);
  });
});

describe('which tokens are valid', () => {
  const now = () => Math.floor(Date.now() / 1000);

  it.each<[string, (team: Team, email: string) => Promise<string>]>([
    ['expired over a minute ago', (team, email) => team.token(email, { exp: now() - 90 })],
    ['valid only from over a minute from now', (team, email) => team.token(email, { nbf: now() + 90 })],
    ['for another application', (team, email) => team.token(email, { aud: ['another-app'] })],
    ['from another team', (team, email) => team.token(email, { iss: 'https://other.cloudflareaccess.com' })],
    ['without an expiry', async (team, email) => {
      const token = await new SignJWT({ email }).setProtectedHeader({ alg: 'RS256', kid: team.signer.kid }).setIssuer(team.origin).setAudience(AUD).sign(team.signer.privateKey);
      return token;
    }],
    ['without an email (a service token)', (team) => team.token(null, { common_name: 'ci.access' })],
    ['signed by a key not in the set, under a known key id', async (team, email) => team.token(email, {}, { ...(await makeSigner(team.signer.kid)) })],
    ['signed by a key not in the set, under its own key id', async (team, email) => team.token(email, {}, await makeSigner('stranger-key'))],
    ['with a changed payload', async (team, email) => {
      const [header, , signature] = (await team.token('someone-else@example.com')).split('.');
      const { payload } = decodeJwt(await team.token(email));
      return `${header}.${base64UrlEncode(payload)}.${signature}`;
    }],
    ['unsigned (alg none)', (team, email) =>
      handMade({ alg: 'none', kid: team.signer.kid, typ: 'JWT' }, { email, iss: team.origin, aud: [AUD], exp: now() + 3600, iat: now() }, async () => null)],
    ['HS256 with the public key as the secret', async (team, email) => {
      const pem = await exportSPKI(team.signer.publicKey);
      const payload = { email, iss: team.origin, aud: [AUD], exp: now() + 3600, iat: now() };
      const sign = async (secret: string, data: Uint8Array) => {
        const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
        return crypto.subtle.sign('HMAC', key, data);
      };
      // Both spellings a confused verifier might take as the secret: the PEM and the JWK as JSON.
      const token = await handMade({ alg: 'HS256', kid: team.signer.kid, typ: 'JWT' }, payload, (data) => sign(pem, data));
      const jwkToken = await handMade({ alg: 'HS256', kid: team.signer.kid, typ: 'JWT' }, payload, (data) => sign(JSON.stringify(team.signer.jwk), data));
      expect((await signIn(team, { token: jwkToken })).status).toBe(401);
      return token;
    }],
    ['whose header names another algorithm (RS512) over an RS256 signature', async (team, email) => {
      const token = await team.token(email);
      const [, payload, signature] = token.split('.');
      return `${base64UrlEncode({ alg: 'RS512', kid: team.signer.kid })}.${payload}.${signature}`;
    }],
    ['not a JWT', async () => 'garbage'],
  ])('refuses a token %s: 401, and GET names nobody', async (_, make) => {
    const team = await makeTeam();
    const user = await createUser();
    const token = await make(team, user.email);
    await expectError(await signIn(team, { token }), 401);
    expect((await who(team, { token })).status).toBe(204);
    expect((await sessionEntries(user.id)).filter((entry) => entry.action === 'login')).toEqual([]);
  });

  it.each([
    ['expired less than a minute ago', () => ({ exp: now() - 30 })],
    ['valid from less than a minute from now', () => ({ nbf: now() + 30 })],
    ['whose audience list holds the application among others', () => ({ aud: ['another-app', AUD] })],
    ['whose audience is the application alone, as a string', () => ({ aud: AUD })],
  ])('accepts a token %s', async (_, claims) => {
    const team = await makeTeam();
    const user = await createUser();
    expect((await signIn(team, { token: await team.token(user.email, claims()) })).status).toBe(200);
  });

  it('accepts the team domain written without its scheme or with a trailing slash', async () => {
    const team = await makeTeam();
    const user = await createUser();
    for (const domain of [team.origin.replace('https://', ''), `${team.origin}/`]) {
      const res = await call('POST', 'auth/access', { vars: { ...team.vars, ACCESS_TEAM_DOMAIN: domain }, token: await team.token(user.email), json: { audience: env.APP_AUDIENCE } });
      expect(res.status, domain).toBe(200);
    }
  });
});

describe("the team's keys", () => {
  it('are fetched once and kept', async () => {
    const team = await makeTeam();
    const user = await createUser();
    for (let i = 0; i < 3; i += 1) expect((await signIn(team, { token: await team.token(user.email) })).status).toBe(200);
    expect(team.fetches).toBe(1);
  });

  it('are fetched again exactly once for a new key id, and once at most for a key id that is not there', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-26T12:00:00Z'));
    const team = await makeTeam();
    const user = await createUser();
    expect((await signIn(team, { token: await team.token(user.email) })).status).toBe(200);
    expect(team.fetches).toBe(1);

    // Access rotates: a new key appears in the set and signs the next tokens.
    vi.setSystemTime(new Date('2026-11-26T12:05:00Z'));
    const rotated = await makeSigner('key-2');
    team.served = [team.signer.jwk, rotated.jwk];
    for (let i = 0; i < 3; i += 1) expect((await signIn(team, { token: await team.token(user.email, {}, rotated) })).status).toBe(200);
    expect(team.fetches).toBe(2);
    // The old key still verifies from the same set.
    expect((await signIn(team, { token: await team.token(user.email) })).status).toBe(200);
    expect(team.fetches).toBe(2);

    // A key id the set does not have: looked for once, then refused without asking again.
    vi.setSystemTime(new Date('2026-11-26T12:10:00Z'));
    const stranger = await makeSigner('not-in-the-set');
    for (let i = 0; i < 3; i += 1) expect((await signIn(team, { token: await team.token(user.email, {}, stranger) })).status).toBe(401);
    expect(team.fetches).toBe(3);

    // Many made-up key ids at once: at most one fetch between them.
    vi.setSystemTime(new Date('2026-11-26T12:15:00Z'));
    const flood = await Promise.all(Array.from({ length: 5 }, (_, i) => makeSigner(`made-up-${i}`)));
    const answers = await Promise.all(flood.map(async (signer) => (await signIn(team, { token: await team.token(user.email, {}, signer) })).status));
    expect(answers).toEqual([401, 401, 401, 401, 401]);
    expect(team.fetches).toBe(4);
    for (const signer of flood) expect((await signIn(team, { token: await team.token(user.email, {}, signer) })).status).toBe(401);
    expect(team.fetches).toBe(4);
  });

  it('are fetched again once they are an hour old', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-26T12:00:00Z'));
    const team = await makeTeam();
    const user = await createUser();
    expect((await signIn(team, { token: await team.token(user.email) })).status).toBe(200);
    // Access has dropped the key: after an hour it stops being trusted.
    team.served = [];
    vi.setSystemTime(new Date('2026-11-26T13:00:01Z'));
    expect((await signIn(team, { token: await team.token(user.email) })).status).toBe(401);
    expect(team.fetches).toBe(2);
  });
});

describe('ACCESS_REQUIRED', () => {
  it('refuses password sign-in with 403, and Access sign-in still works', async () => {
    const team = await makeTeam();
    const user = await createUser();
    const required = { ...team.vars, ACCESS_REQUIRED: 'true' };
    const res = await asInvocation(() =>
      app.fetch(
        new Request(`${ORIGIN}/api/v1/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'cf-connecting-ip': freshIp() },
          body: JSON.stringify({ username: user.email, password: user.password, audience: env.APP_AUDIENCE }),
        }),
        { ...env, ...required },
        createExecutionContext(),
      ),
    );
    expect((await expectError(res, 403)).message).toBe('Sign in through your company account');
    const access = await call('POST', 'auth/access', { vars: required, token: await team.token(user.email), json: { audience: env.APP_AUDIENCE } });
    expect(access.status).toBe(200);
    // Anything but "true" leaves password sign-in on.
    expect((await attemptLogin(user, { ip: freshIp() })).status).toBe(200);
  });
});
