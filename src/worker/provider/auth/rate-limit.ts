import { tooManyRequests } from '../http/errors';

// Failed sign-ins allowed per window: a few per account (guessing one password), more per
// address (shared offices). Windows expire, so nobody is locked out for longer than one window.
const WINDOW_SECONDS = 15 * 60;
const LIMITS = { email: 5, ip: 20 } as const;

type Scope = keyof typeof LIMITS;
const keyOf = (scope: Scope, value: string) => `${scope}:${value.toLowerCase()}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

export interface LoginSubject {
  email: string;
  ip: string;
}

const subjectKeys = ({ email, ip }: LoginSubject) =>
  [
    ['email', keyOf('email', email)],
    ['ip', keyOf('ip', ip)],
  ] as const;

/** Throws 429 with Retry-After when the email or the address has used up its failures. */
export const assertNotLimited = async (db: D1Database, subject: LoginSubject) => {
  const now = nowSeconds();
  for (const [scope, key] of subjectKeys(subject)) {
    const row = await db
      .prepare('SELECT window_start, count FROM login_attempts WHERE key = ?1')
      .bind(key)
      .first<{ window_start: number; count: number }>();
    if (row && row.window_start > now - WINDOW_SECONDS && row.count >= LIMITS[scope]) {
      throw tooManyRequests(row.window_start + WINDOW_SECONDS - now);
    }
  }
};

export const recordFailure = (db: D1Database, subject: LoginSubject) => {
  const now = nowSeconds();
  const upsert = db.prepare(
    `INSERT INTO login_attempts (key, window_start, count) VALUES (?1, ?2, 1)
     ON CONFLICT (key) DO UPDATE SET
       count = CASE WHEN window_start <= ?2 - ?3 THEN 1 ELSE count + 1 END,
       window_start = CASE WHEN window_start <= ?2 - ?3 THEN ?2 ELSE window_start END`,
  );
  return db.batch(subjectKeys(subject).map(([, key]) => upsert.bind(key, now, WINDOW_SECONDS)));
};

/** A correct password clears the account's failures, not the address's. */
export const recordSuccess = (db: D1Database, subject: LoginSubject) =>
  db.prepare('DELETE FROM login_attempts WHERE key = ?1').bind(keyOf('email', subject.email)).run();

/**
 * Deletes windows that have ended. They count for nothing (a failure starts a new window and the
 * check ignores them), so no answer of the limiter changes; a backup prunes them first.
 */
export const pruneExpiredWindows = (db: D1Database) =>
  db.prepare('DELETE FROM login_attempts WHERE window_start <= ?1').bind(nowSeconds() - WINDOW_SECONDS);
