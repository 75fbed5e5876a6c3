import { env } from 'cloudflare:test';

/**
 * Cloudflare's D1 refuses a statement that binds more than 100 parameters or whose SQL is longer
 * than 100 KB; local D1 (SQLite in workerd) takes both. This setup file holds every workerd test
 * to the deployed limits by wrapping the D1 classes themselves, so every binding, the Worker's own
 * (SELF reaches the same isolate) and every D1 made later, refuses what Cloudflare would.
 */
export const MAX_BOUND_PARAMETERS = 100;
export const MAX_SQL_BYTES = 100_000;

const sqlBytes = (sql: string) => new TextEncoder().encode(sql).byteLength;

const checkSql = (sql: unknown) => {
  if (typeof sql === 'string' && sqlBytes(sql) > MAX_SQL_BYTES) {
    throw new Error(`D1_ERROR: statement too long: ${sqlBytes(sql)} bytes of SQL, D1 takes at most ${MAX_SQL_BYTES}: SQLITE_TOOBIG`);
  }
};

const checkParameters = (count: number) => {
  if (count > MAX_BOUND_PARAMETERS) {
    throw new Error(`D1_ERROR: too many SQL variables: ${count} bound parameters, D1 takes at most ${MAX_BOUND_PARAMETERS}: SQLITE_ERROR`);
  }
};

const GUARDED = Symbol.for('staff-app.d1-limits');

type Patchable = Record<PropertyKey, unknown>;

/** Wraps `method` on `proto` once, running `check` on its arguments before the real call. */
const guard = (proto: Patchable, method: string, check: (args: unknown[]) => void) => {
  const original = proto[method];
  if (typeof original !== 'function' || (original as unknown as Patchable)[GUARDED]) return;
  const wrapped = function (this: unknown, ...args: unknown[]) {
    check(args);
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  };
  (wrapped as unknown as Patchable)[GUARDED] = true;
  proto[method] = wrapped;
};

export const installD1Limits = (db: D1Database) => {
  const databaseProto = Object.getPrototypeOf(db) as Patchable;
  const statementProto = Object.getPrototypeOf(db.prepare('SELECT 1')) as Patchable;
  guard(databaseProto, 'prepare', ([sql]) => checkSql(sql));
  // exec runs the statements of a script one by one; each one is held to the length limit.
  guard(databaseProto, 'exec', ([sql]) => {
    if (typeof sql === 'string') for (const statement of sql.split(/;\s*\n/)) checkSql(statement);
  });
  guard(statementProto, 'bind', (args) => checkParameters(args.length));
};

installD1Limits(env.DB);
