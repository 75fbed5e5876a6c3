import { env, SELF } from 'cloudflare:test';
import { hashPassword } from '../../src/worker/provider/auth/password';
import { insertUser } from '../../src/worker/provider/db/users';

export const ORIGIN = 'https://app.test';

/** A request to the app as the browser makes it: through the Worker, the passthrough and the provider. */
export const api = (path: string, init: RequestInit & { token?: string; json?: unknown } = {}) => {
  const { token, json, headers, ...rest } = init;
  const merged = new Headers(headers);
  if (token) merged.set('authorization', `Bearer ${token}`);
  if (json !== undefined) merged.set('content-type', 'application/json');
  return SELF.fetch(`${ORIGIN}/api/v1/${path}`, {
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

/** Inserts a user straight into D1, as the seed script does. */
export const createUser = async (overrides: Partial<Omit<TestUser, 'id'>> & { isActive?: boolean } = {}): Promise<TestUser> => {
  counter += 1;
  const fields = {
    firstName: 'Test',
    surname: `User${counter}`,
    email: `user${counter}-${crypto.randomUUID().slice(0, 8)}@example.com`,
    password: 'correct horse battery staple',
    ...overrides,
  };
  const user = await insertUser(env.DB, {
    firstName: fields.firstName,
    surname: fields.surname,
    email: fields.email,
    isActive: overrides.isActive,
    passwordHash: await hashPassword(fields.password),
  });
  return { ...fields, id: user.id };
};

export const login = async (user: Pick<TestUser, 'email' | 'password'>, ip = '203.0.113.7') => {
  const res = await api('auth/login', {
    method: 'POST',
    headers: { 'cf-connecting-ip': ip },
    json: { username: user.email, password: user.password, audience: env.APP_AUDIENCE },
  });
  if (res.status !== 200) throw new Error(`login failed with ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
};

/** A user and a token for them, for calls that need a signed-in caller. */
export const signedIn = async () => {
  const user = await createUser();
  return { user, token: await login(user) };
};
