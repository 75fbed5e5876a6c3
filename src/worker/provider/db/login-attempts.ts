import { TooManyAttempts } from '../errors/domain';

/**
 * Sign-in attempts allowed per window, counted before the password is checked:
 * - pair: one address guessing one account's password;
 * - address: one address trying many accounts (a shared office stays well under it);
 * - email: everyone together guessing one account, the slower global cap. A single address adds
 *   at most its pair allowance to it, so a stranger cannot lock anyone out alone.
 * Windows expire, so nobody is locked out for longer than one window.
 */
const LOGIN_LIMITS = {
  pair: { limit: 5, seconds: 15 * 60 },
  address: { limit: 20, seconds: 15 * 60 },
  email: { limit: 100, seconds: 60 * 60 },
} as const;

type Scope = keyof typeof LOGIN_LIMITS;
const LONGEST_WINDOW = Math.max(...Object.values(LOGIN_LIMITS).map((window) => window.seconds));
const nowSeconds = () => Math.floor(Date.now() / 1000);

export interface LoginSubject {
  email: string;
  /** The connecting address, or null when the request came with none the Worker trusts. */
  ip: string | null;
}

// Without an address there is no address bucket, and the pair bucket is the account's own
// (`-`), never one `unknown` bucket shared by every such request for every account.
const keysOf = ({ email, ip }: LoginSubject): Partial<Record<Scope, string>> => {
  const account = email.trim().toLowerCase();
  return {
    pair: `pair:${account}|${ip ?? '-'}`,
    ...(ip ? { address: `ip:${ip.toLowerCase()}` } : {}),
    email: `email:${account}`,
  };
};

// A bucket counts only while the narrower ones have not run out, so hammering one blocked pair
// does not also use up the account's global allowance.
const UPSERT = `INSERT INTO login_attempts (key, window_start, count)
  SELECT ?1, ?2, 1 WHERE {gate}
  ON CONFLICT (key) DO UPDATE SET
    count = CASE WHEN window_start <= ?2 - ?3 THEN 1 ELSE count + 1 END,
    window_start = CASE WHEN window_start <= ?2 - ?3 THEN ?2 ELSE window_start END
  RETURNING count, window_start`;

/** `scope`'s bucket, whose key is bound to parameter `param`, is not over its limit. */
const within = (scope: Scope, param: number) =>
  `coalesce((SELECT count FROM login_attempts WHERE key = ?${param}), 0) <= ${LOGIN_LIMITS[scope].limit}`;

/**
 * Counts this attempt in every bucket of the subject in one D1 batch (one transaction), before
 * any password is checked, and throws TooManyAttempts (429 with Retry-After) when a bucket is over its limit. Each
 * count is one atomic upsert, so a burst of parallel attempts gets no more tries than serial ones.
 * Windows older than the longest one are pruned in the same batch.
 */
export const countAttempt = async (db: D1Database, subject: LoginSubject) => {
  const now = nowSeconds();
  const keys = keysOf(subject);
  const order = (['pair', 'address', 'email'] as const).filter((scope) => keys[scope] !== undefined);
  const statements = order.map((scope, i) => {
    const narrower = order.slice(0, i);
    const gate = narrower.map((other, j) => within(other, 4 + j)).join(' AND ') || 'true';
    return db
      .prepare(UPSERT.replace('{gate}', gate))
      .bind(keys[scope], now, LOGIN_LIMITS[scope].seconds, ...narrower.map((other) => keys[other]));
  });
  const [, ...results] = await db.batch<{ count: number; window_start: number }>([
    db.prepare('DELETE FROM login_attempts WHERE window_start <= ?1').bind(now - LONGEST_WINDOW),
    ...statements,
  ]);
  let retryAfter = 0;
  order.forEach((scope, i) => {
    const row = results[i]?.results[0];
    if (row && row.count > LOGIN_LIMITS[scope].limit) {
      retryAfter = Math.max(retryAfter, row.window_start + LOGIN_LIMITS[scope].seconds - now);
    }
  });
  if (retryAfter > 0) throw new TooManyAttempts(retryAfter);
};

/**
 * A correct password gives its attempt back: the pair's failures are forgotten (this address
 * knows the password), and the address and account counts drop by the one attempt. `also` (the
 * sign-in's audit entry) is written in the same batch.
 */
export const recordSuccess = (db: D1Database, subject: LoginSubject, ...also: D1PreparedStatement[]) => {
  const keys = keysOf(subject);
  return db.batch([
    db.prepare('DELETE FROM login_attempts WHERE key = ?1').bind(keys.pair),
    db.prepare('UPDATE login_attempts SET count = max(count - 1, 0) WHERE key IN (?1, ?2)').bind(keys.address ?? null, keys.email),
    ...also,
  ]);
};

/**
 * Deletes windows that have ended. They count for nothing (an attempt in an ended window starts a
 * new one), so no answer of the limiter changes; a backup prunes them first.
 */
export const pruneExpiredWindows = (db: D1Database) =>
  db.prepare('DELETE FROM login_attempts WHERE window_start <= ?1').bind(nowSeconds() - LONGEST_WINDOW);
