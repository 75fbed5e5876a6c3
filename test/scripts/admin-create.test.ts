import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/worker/provider/auth/password';
import { AdminCreateError, createAdmin, type AdminInput } from '../../scripts/admin-create';
import { d1Read, type D1Location } from '../../scripts/d1-cli';
import { bin, run } from '../../scripts/run';

// `npm run admin:create -- --remote` runs its statements through `wrangler d1 execute --remote`;
// here the same code runs with `--local --persist-to` a throwaway folder in its place, and the
// local form (the D1 binding, LOCAL_STATE_DIR) against the same folder.

let folder: string;
let where: D1Location;
const PASSWORD = 'a long and unusual passphrase';
const input = (email: string, password = PASSWORD): AdminInput => ({ email, firstName: 'Ops', surname: 'Owner', password });

/** The command itself, as a person runs it, with no terminal on stdin. */
const command = (args: string[], env: Record<string, string>) =>
  new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(bin('tsx'), ['scripts/admin-create.ts', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });

const userRow = async (email: string) =>
  (await d1Read(where, [`SELECT id, role, is_active, password_hash FROM users WHERE email = '${email}'`]))[0]?.[0] as
    | { id: number; role: string; is_active: number; password_hash: string }
    | undefined;
const auditOf = async (id: number) => (await d1Read(where, [`SELECT actor_id, action, entity, request_id, changes FROM audit_log WHERE entity = 'user' AND entity_id = ${id}`]))[0];
const total = async (table: string) => Number((await d1Read(where, [`SELECT count(*) AS n FROM ${table}`]))[0]?.[0]?.n);

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'staff-app-admin-'));
  where = { remote: false, persistTo: folder };
  process.env.LOCAL_STATE_DIR = folder;
  await run(bin('wrangler'), ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', folder]);
});
afterAll(async () => {
  delete process.env.LOCAL_STATE_DIR;
  await rm(folder, { recursive: true, force: true });
});

describe('npm run admin:create', () => {
  it.each([
    ['too short', 'short', /Password must be at least 8 characters/],
    ['a common password', 'password123', /Password is too common/],
    ['the email itself', 'first@example.com', /Password must not be your email address/],
  ])('refuses a password that is %s, writing nothing', async (_, password, message) => {
    const error = await createAdmin(input('first@example.com', password), where).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AdminCreateError);
    expect((error as Error).message).toMatch(message);
    expect(await total('users')).toBe(0);
  });

  it('creates the admin through wrangler, hashed with the provider’s PBKDF2, logged as made by setup', async () => {
    await createAdmin(input('first@example.com'), where);
    const user = await userRow('first@example.com');
    expect(user).toMatchObject({ role: 'admin', is_active: 1 });
    expect(user?.password_hash).toMatch(/^pbkdf2-sha256\$100000\$/);
    expect(await verifyPassword(PASSWORD, user?.password_hash ?? '')).toBe(true);
    const entries = await auditOf(user?.id ?? 0);
    expect(entries).toEqual([{ actor_id: null, action: 'create', entity: 'user', request_id: 'setup', changes: expect.stringContaining('"email":[null,"first@example.com"]') as unknown }]);
    expect(entries?.[0]?.changes).not.toMatch(/pbkdf2/);
  });

  it.each([
    ['through wrangler', () => where],
    ['through the local D1 binding', () => 'binding' as const],
  ])('refuses an email already in use %s, writing nothing', async (_, location) => {
    const [users, entries] = [await total('users'), await total('audit_log')];
    const error = await createAdmin(input('FIRST@example.com'), location()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AdminCreateError);
    expect((error as Error).message).toMatch(/Email address is already in use/);
    expect([await total('users'), await total('audit_log')]).toEqual([users, entries]);
  });

  it('runs as a command: the password from ADMIN_PASSWORD with no terminal, into LOCAL_STATE_DIR', async () => {
    const made = await command(['--email', 'second@example.com', '--first', 'Sam', '--surname', 'Second'], { LOCAL_STATE_DIR: folder, ADMIN_PASSWORD: PASSWORD });
    expect(made.output).toMatch(/Created the admin Sam Second <second@example.com>/);
    expect(made.code).toBe(0);
    expect(await userRow('second@example.com')).toMatchObject({ role: 'admin' });

    const unasked = await command(['--email', 'third@example.com', '--first', 'T', '--surname', 'Third'], { LOCAL_STATE_DIR: folder, ADMIN_PASSWORD: '' });
    expect(unasked.output).toMatch(/set ADMIN_PASSWORD/);
    expect(unasked.code).toBe(1);
  });
});
