import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { MAX_BOUND_PARAMETERS, MAX_CALLS_PER_INVOCATION, MAX_SQL_BYTES, asInvocation, countD1Calls, overlongCalls } from './d1-limits';
import { api, signedIn } from './support';

const placeholders = (count: number) => Array.from({ length: count }, (_, i) => `?${i + 1}`).join(', ');
const values = (count: number) => Array.from({ length: count }, (_, i) => i);
/** A SELECT of exactly `bytes` bytes of SQL. */
const sqlOf = (bytes: number) => {
  const head = "SELECT '";
  const tail = "' AS padding";
  return `${head}${'x'.repeat(bytes - head.length - tail.length)}${tail}`;
};

describe('D1 statement limits in the workerd tests', () => {
  it('refuses a statement binding 101 parameters and runs one binding 100', async () => {
    expect(() => env.DB.prepare(`SELECT ${placeholders(101)}`).bind(...values(101))).toThrow(/too many SQL variables: 101 bound parameters/);
    const row = await env.DB.prepare(`SELECT ${placeholders(MAX_BOUND_PARAMETERS)}`).bind(...values(MAX_BOUND_PARAMETERS)).raw();
    expect(row[0]).toHaveLength(MAX_BOUND_PARAMETERS);
  });

  it('refuses 100 KB + 1 byte of SQL and runs 100 KB', async () => {
    expect(() => env.DB.prepare(sqlOf(MAX_SQL_BYTES + 1))).toThrow(/statement too long: 100001 bytes/);
    await expect(env.DB.exec(sqlOf(MAX_SQL_BYTES + 1))).rejects.toThrow(/statement too long/);
    const { results } = await env.DB.prepare(sqlOf(MAX_SQL_BYTES)).all<{ padding: string }>();
    expect(results[0]?.padding).toHaveLength(MAX_SQL_BYTES - "SELECT '' AS padding".length);
  });

  it('holds every D1 binding to the limits, the extra test databases too', () => {
    expect(() => env.RESTORE_DB.prepare('SELECT ?1').bind(...values(101))).toThrow(/too many SQL variables/);
    expect(() => env.MIGRATION_DB.prepare(sqlOf(MAX_SQL_BYTES + 1))).toThrow(/statement too long/);
  });
});

describe('limits workerd does not enforce, enforced in the tests', () => {
  const args = (count: number) => Array.from({ length: count }, (_, i) => String(i)).join(', ');

  it('refuses an SQL function called with more than 32 arguments, wherever it sits', async () => {
    expect(() => env.DB.prepare(`SELECT json_array(${args(33)})`)).toThrow(/too many arguments on function json_array \(33 arguments\)/);
    expect(() => env.DB.prepare(`SELECT 1 WHERE 1 IN (SELECT coalesce(${args(40)}))`)).toThrow(/coalesce \(40 arguments\)/);
    await expect(env.DB.exec(`SELECT max(${args(33)});`)).rejects.toThrow(/too many arguments on function max/);
    expect(await env.DB.prepare(`SELECT json_array(${args(32)}) AS a, 1 IN (${args(60)}) AS b`).first()).toBeTruthy();
    // Commas inside quotes, and lists that are no function call, are not arguments.
    expect(overlongCalls(`SELECT printf('${','.repeat(50)}') WHERE x IN (${args(50)}) AND y NOT IN (VALUES (${args(50)}))`)).toEqual([]);
  });

  it('refuses a bound value over 2,000,000 bytes and takes one of exactly that size', async () => {
    expect(() => env.DB.prepare('SELECT length(?1)').bind('é'.repeat(1_000_001))).toThrow(/string or blob too big: a bound value of 2000002 bytes/);
    expect(() => env.DB.prepare('SELECT length(?1)').bind(new Uint8Array(2_000_001))).toThrow(/string or blob too big/);
    expect(await env.DB.prepare('SELECT length(?1) AS n').bind('x'.repeat(2_000_000)).first('n')).toBe(2_000_000);
  });

  it('counts each statement run, batch and exec as one D1 call', async () => {
    const { calls } = await countD1Calls(async () => {
      await env.DB.prepare('SELECT 1').first();
      await env.DB.prepare('SELECT 1').all();
      await env.DB.batch([env.DB.prepare('SELECT 1'), env.DB.prepare('SELECT 2')]);
      await env.DB.exec('SELECT 1;');
    });
    expect(calls).toBe(4);
  });

  it('fails the 1,001st D1 call of one invocation, and counts each request of the Worker as its own', async () => {
    const statement = env.DB.prepare('SELECT 1');
    const invocation = (count: number) => asInvocation(() => Promise.all(Array.from({ length: count }, () => statement.first())));
    await expect(invocation(MAX_CALLS_PER_INVOCATION)).resolves.toHaveLength(MAX_CALLS_PER_INVOCATION);
    await expect(invocation(MAX_CALLS_PER_INVOCATION + 1)).rejects.toThrow(/Too many API requests by single worker invocation/);
    const { token } = await signedIn();
    const { calls } = await countD1Calls(() => Promise.all(Array.from({ length: 3 }, () => api('users', { token }))));
    expect(calls).toBeGreaterThan(2);
  });
});
