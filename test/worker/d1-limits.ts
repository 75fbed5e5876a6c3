import { env } from 'cloudflare:test';
import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Cloudflare's D1 refuses a statement that binds more than 100 parameters, whose SQL is longer
 * than 100 KB, that calls an SQL function with more than 32 arguments or binds a value over
 * 2,000,000 bytes, and a Worker invocation that makes more than 1,000 D1 calls; local D1 (SQLite
 * in workerd) takes all of these. This setup file holds every workerd test to the deployed limits
 * by wrapping the D1 classes themselves, so every binding, the Worker's own (SELF reaches the same
 * isolate) and every D1 made later, refuses what Cloudflare would.
 */
export const MAX_BOUND_PARAMETERS = 100;
export const MAX_SQL_BYTES = 100_000;
export const MAX_FUNCTION_ARGUMENTS = 32;
export const MAX_VALUE_BYTES = 2_000_000;
export const MAX_CALLS_PER_INVOCATION = 1_000;

const sqlBytes = (sql: string) => new TextEncoder().encode(sql).byteLength;

const checkSql = (sql: unknown) => {
  if (typeof sql === 'string' && sqlBytes(sql) > MAX_SQL_BYTES) {
    throw new Error(`D1_ERROR: statement too long: ${sqlBytes(sql)} bytes of SQL, D1 takes at most ${MAX_SQL_BYTES}: SQLITE_TOOBIG`);
  }
};

const valueBytes = (value: unknown) => {
  if (typeof value === 'string') return value.length * 3 > MAX_VALUE_BYTES ? sqlBytes(value) : value.length;
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return value.byteLength;
  return 0;
};

const checkParameters = (values: unknown[]) => {
  if (values.length > MAX_BOUND_PARAMETERS) {
    throw new Error(`D1_ERROR: too many SQL variables: ${values.length} bound parameters, D1 takes at most ${MAX_BOUND_PARAMETERS}: SQLITE_ERROR`);
  }
  for (const value of values) {
    const bytes = valueBytes(value);
    if (bytes > MAX_VALUE_BYTES) throw new Error(`D1_ERROR: string or blob too big: a bound value of ${bytes} bytes, D1 takes at most ${MAX_VALUE_BYTES}: SQLITE_TOOBIG`);
  }
};

// Words that may stand right before a parenthesis without calling a function.
const NOT_FUNCTIONS = new Set(['in', 'values', 'exists', 'as', 'using', 'into', 'on', 'and', 'or', 'not', 'when', 'then', 'else', 'where', 'select', 'from', 'join', 'by', 'is', 'key', 'check', 'unique', 'references', 'table', 'index', 'over', 'filter']);

/**
 * The functions `sql` calls with more than MAX_FUNCTION_ARGUMENTS arguments: a name written
 * against its opening parenthesis, arguments counted at that parenthesis's depth, outside quotes.
 */
export const overlongCalls = (sql: string) => {
  const found: string[] = [];
  const frames: { name: string | null; commas: number }[] = [];
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i] as string;
    if (ch === "'" || ch === '"' || ch === '`') {
      const end = sql.indexOf(ch, i + 1);
      i = end < 0 ? sql.length : end;
    } else if (ch === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end;
    } else if (ch === '(') {
      const name = /([a-z_][a-z0-9_]*)$/i.exec(sql.slice(Math.max(0, i - 64), i))?.[1]?.toLowerCase() ?? null;
      frames.push({ name: name && !NOT_FUNCTIONS.has(name) ? name : null, commas: 0 });
    } else if (ch === ',' && frames.length) {
      (frames[frames.length - 1] as { commas: number }).commas += 1;
    } else if (ch === ')') {
      const frame = frames.pop();
      if (frame?.name && frame.commas + 1 > MAX_FUNCTION_ARGUMENTS) found.push(`${frame.name} (${frame.commas + 1} arguments)`);
    }
  }
  return found;
};

const checkFunctions = (sql: unknown) => {
  const calls = typeof sql === 'string' ? overlongCalls(sql) : [];
  if (calls.length) throw new Error(`D1_ERROR: too many arguments on function ${calls[0]}, D1 takes at most ${MAX_FUNCTION_ARGUMENTS}: SQLITE_ERROR`);
};

/** The D1 calls of one Worker invocation, and of whatever measures them around it. */
interface Tally {
  calls: number;
  limit: number;
  outer?: Tally;
}
const tallies = new AsyncLocalStorage<Tally>();

const countCall = () => {
  for (let tally = tallies.getStore(); tally; tally = tally.outer) {
    tally.calls += 1;
    if (tally.calls > tally.limit) throw new Error(`D1_ERROR: Too many API requests by single worker invocation: more than ${tally.limit} D1 calls: SQLITE_ERROR`);
  }
};

/** Runs `work` as one Worker invocation: its D1 calls past 1,000 fail, as deployed. */
export const asInvocation = <T>(work: () => T): T => tallies.run({ calls: 0, limit: MAX_CALLS_PER_INVOCATION, outer: tallies.getStore() }, work);

/** The D1 calls `work` makes (a statement run, a batch or an exec is one each), and its result. */
export const countD1Calls = async <T>(work: () => Promise<T>): Promise<{ calls: number; result: T }> => {
  const tally: Tally = { calls: 0, limit: Number.POSITIVE_INFINITY, outer: tallies.getStore() };
  const result = await tallies.run(tally, work);
  return { calls: tally.calls, result };
};

const GUARDED = Symbol.for('staff-app.d1-limits');

type Patchable = Record<PropertyKey, unknown>;

/**
 * Wraps `method` on `proto` once, running `check` on its arguments before the real call. A method
 * that answers a promise (`async`) answers a rejected one when the check fails, as D1 does.
 */
const guard = (proto: Patchable, method: string, check: (args: unknown[]) => void, async = false) => {
  const original = proto[method];
  if (typeof original !== 'function' || (original as unknown as Patchable)[GUARDED]) return;
  const wrapped = function (this: unknown, ...args: unknown[]) {
    try {
      check(args);
    } catch (error) {
      if (async) return Promise.reject(error);
      throw error;
    }
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  };
  (wrapped as unknown as Patchable)[GUARDED] = true;
  proto[method] = wrapped;
};

export const installD1Limits = (db: D1Database) => {
  const databaseProto = Object.getPrototypeOf(db) as Patchable;
  const statementProto = Object.getPrototypeOf(db.prepare('SELECT 1')) as Patchable;
  guard(databaseProto, 'prepare', ([sql]) => {
    checkSql(sql);
    checkFunctions(sql);
  });
  // exec runs the statements of a script one by one; each one is held to the length limit.
  guard(databaseProto, 'exec', ([sql]) => {
    countCall();
    if (typeof sql === 'string') {
      for (const statement of sql.split(/;\s*\n/)) checkSql(statement);
      checkFunctions(sql);
    }
  }, true);
  guard(databaseProto, 'batch', countCall, true);
  guard(statementProto, 'bind', checkParameters);
  for (const run of ['first', 'all', 'run', 'raw']) guard(statementProto, run, countCall, true);
};

installD1Limits(env.DB);
