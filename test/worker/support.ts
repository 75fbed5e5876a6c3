import { createExecutionContext, env } from 'cloudflare:test';
import { expect } from 'vitest';
import { createApp } from '../../src/worker/index';
import { asInvocation } from './d1-limits';
import { hashPassword } from '../../src/worker/provider/auth/password';
import type { Role } from '../../src/shared/types';
import { NO_ACTOR } from '../../src/worker/provider/db/audit';
import { insertUser } from '../../src/worker/provider/db/users';

export const ORIGIN = 'https://app.test';

// The Worker's own app, called in this isolate. The pool's SELF binding reaches the same code,
// but every SELF.fetch makes the next one slower (10 ms at first, hundreds after a few hundred
// calls), which long generated runs cannot afford; smoke.test.ts keeps SELF wired and tested.
// Its request log is request-log.test.ts's to check; here it would print a line per call.
const app = createApp({ log: () => {} });

/** Sends a request into the Worker exactly as workerd would hand it over, one invocation each. */
export const appFetch = async (url: string, init?: RequestInit): Promise<Response> =>
  asInvocation(() => app.fetch(new Request(url, init), env, createExecutionContext()));

/** A request to the app as the browser makes it: through the Worker, the passthrough and the provider. */
export const api = (path: string, init: RequestInit & { token?: string; json?: unknown } = {}) => {
  const { token, json, headers, ...rest } = init;
  const merged = new Headers(headers);
  if (token) merged.set('authorization', `Bearer ${token}`);
  if (json !== undefined) merged.set('content-type', 'application/json');
  return appFetch(`${ORIGIN}/api/v1/${path}`, {
    ...rest,
    headers: merged,
    body: json !== undefined ? JSON.stringify(json) : rest.body,
  });
};

let counter = 0;

export interface TestUser {
  id: number;
  email: string;
  password: string;
  firstName: string;
  surname: string;
}

/** Inserts a user straight into D1, as the seed script does; staff unless `role` says otherwise. */
export const createUser = async (overrides: Partial<Omit<TestUser, 'id'>> & { isActive?: boolean; role?: Role } = {}): Promise<TestUser> => {
  counter += 1;
  const fields = {
    firstName: 'Test',
    surname: `User${counter}`,
    email: `user${counter}-${crypto.randomUUID().slice(0, 8)}@example.com`,
    password: 'correct horse battery staple',
    ...overrides,
  };
  const user = await insertUser(
    env.DB,
    {
      firstName: fields.firstName,
      surname: fields.surname,
      email: fields.email,
      isActive: overrides.isActive,
      role: overrides.role,
      passwordHash: await hashPassword(fields.password),
    },
    NO_ACTOR,
  );
  return { id: user.id, email: fields.email, password: fields.password, firstName: fields.firstName, surname: fields.surname };
};

export interface LoginOptions {
  /** The connecting address; the rate limiter counts failures per address. */
  ip?: string;
  audience?: string;
}

/** POST auth/login as the login form sends it, answered as is. */
export const attemptLogin = (
  user: Pick<TestUser, 'email' | 'password'>,
  { ip = '203.0.113.7', audience = env.APP_AUDIENCE }: LoginOptions = {},
) =>
  api('auth/login', {
    method: 'POST',
    headers: { 'cf-connecting-ip': ip },
    json: { username: user.email, password: user.password, audience },
  });

export const login = async (user: Pick<TestUser, 'email' | 'password'>, ip = '203.0.113.7') => {
  const res = await attemptLogin(user, { ip });
  if (res.status !== 200) throw new Error(`login failed with ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
};

/** A user of the given role (admin unless said otherwise) and a token for them. */
export const signedIn = async (role: Role = 'admin') => {
  const user = await createUser({ role });
  return { user, token: await login(user) };
};

/** A response read once: status, headers, the raw text and the parsed JSON. */
export interface ReadResponse<T> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

/** Reads a JSON response; fails the test when the body is not JSON. */
export const readJson = async <T = Record<string, unknown>>(res: Response): Promise<ReadResponse<T>> => {
  const text = await res.text();
  let body: T;
  try {
    body = JSON.parse(text) as T;
  } catch {
    throw new Error(`expected a JSON body with status ${res.status}, got: ${text.slice(0, 200)}`);
  }
  return { status: res.status, headers: res.headers, text, body };
};

export interface ErrorJson {
  message: string;
  errors?: Record<string, string[]>;
}

export interface ProblemJson {
  title: string;
  status: number;
  detail: string;
}

/** Asserts the docs/api.md#errors error shape: the status, a JSON content type and a non-empty message. */
export const expectError = async (res: Response, status: number): Promise<ErrorJson> => {
  const { body } = await readJson<ErrorJson>(res);
  expect({ status: res.status, body }).toMatchObject({ status, body: { message: expect.any(String) } });
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(body.message.trim()).not.toBe('');
  return body;
};

/** Asserts a 409 problem body `{ title, status: 409, detail }`. */
export const expectConflict = async (res: Response): Promise<ProblemJson> => {
  const { body } = await readJson<ProblemJson>(res);
  expect({ status: res.status, body }).toMatchObject({
    status: 409,
    body: { title: expect.any(String), status: 409, detail: expect.any(String) },
  });
  expect(body.detail.trim()).not.toBe('');
  return body;
};

const base64UrlJson = (part: string): Record<string, unknown> =>
  JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as Record<string, unknown>;

/** The header and payload of a JWT, without checking its signature. */
export const decodeJwt = (token: string) => {
  const [header = '', payload = ''] = token.split('.');
  return { header: base64UrlJson(header), payload: base64UrlJson(payload) };
};

export const base64UrlEncode = (value: unknown) =>
  btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** A distinct connecting address per call, so rate-limit counters of tests stay apart. */
let lastAddress = 0;
export const freshIp = () => {
  lastAddress += 1;
  return `198.18.${Math.floor(lastAddress / 250)}.${(lastAddress % 250) + 1}`;
};

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
