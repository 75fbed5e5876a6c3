import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { MAX_BOUND_PARAMETERS, MAX_SQL_BYTES } from './d1-limits';

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
    expect(() => env.DB.exec(sqlOf(MAX_SQL_BYTES + 1))).toThrow(/statement too long/);
    const { results } = await env.DB.prepare(sqlOf(MAX_SQL_BYTES)).all<{ padding: string }>();
    expect(results[0]?.padding).toHaveLength(MAX_SQL_BYTES - "SELECT '' AS padding".length);
  });

  it('holds every D1 binding to the limits, the extra test databases too', () => {
    expect(() => env.RESTORE_DB.prepare('SELECT ?1').bind(...values(101))).toThrow(/too many SQL variables/);
    expect(() => env.MIGRATION_DB.prepare(sqlOf(MAX_SQL_BYTES + 1))).toThrow(/statement too long/);
  });
});
