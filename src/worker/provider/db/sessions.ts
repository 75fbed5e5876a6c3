import type { Role } from '../../../shared/types';

const nowSeconds = () => Math.floor(Date.now() / 1000);

export interface Session {
  role: Role;
}

/** What a token names of its session: its user, that user's session version, and its own id. */
export interface SessionRef {
  userId: number;
  sessionVersion: number;
  tokenId: string;
}

/**
 * The token may still be used: its account exists and is active, is still on the token's session
 * version, and the token was not signed out. Binds ?1 user id, ?2 session version, ?3 token id.
 */
const SESSION_LIVE = 'id = ?1 AND is_active = 1 AND session_version = ?2 AND NOT EXISTS (SELECT 1 FROM revoked_tokens WHERE jti = ?3)';

/** `columns` of the token's user while its session is live (SESSION_LIVE); null otherwise. One query. */
export const findLiveSession = <T>(db: D1Database, columns: string, { userId, sessionVersion, tokenId }: SessionRef) =>
  db.prepare(`SELECT ${columns} FROM users WHERE ${SESSION_LIVE}`).bind(userId, sessionVersion, tokenId).first<T>();

/**
 * Which of one person's tokens may still be used, by the same rule as SESSION_LIVE, in one query
 * however many tokens: the account's state and which of the token ids are signed out.
 */
export const findLiveTokens = async (db: D1Database, userId: number, tokens: Omit<SessionRef, 'userId'>[]) => {
  const row = await db
    .prepare(
      `SELECT role, session_version, is_active,
              (SELECT json_group_array(jti) FROM revoked_tokens WHERE jti IN (SELECT value FROM json_each(?2))) AS revoked
       FROM users WHERE id = ?1`,
    )
    .bind(userId, JSON.stringify(tokens.map((token) => token.tokenId)))
    .first<{ role: Role; session_version: number; is_active: number; revoked: string }>();
  if (!row || row.is_active !== 1) return { role: null, live: new Set<string>() };
  const revoked = new Set(JSON.parse(row.revoked) as string[]);
  const live = tokens.filter((token) => token.sessionVersion === row.session_version && !revoked.has(token.tokenId));
  return { role: row.role, live: new Set(live.map((token) => token.tokenId)) };
};

/** The caller's role while the token may still be used; null otherwise. The check behind every signed-in call. */
export const findSession = (db: D1Database, session: SessionRef) => findLiveSession<Session>(db, 'role', session);

/**
 * Ends one token: its id is kept until the token would have expired anyway, and ids past that
 * are deleted in the same batch, so the table holds only tokens that could still be presented.
 */
export const revokeSession = (db: D1Database, { tokenId, expiresAt }: { tokenId: string; expiresAt: number }) =>
  db.batch([
    db.prepare('DELETE FROM revoked_tokens WHERE expires_at <= ?1').bind(nowSeconds()),
    db.prepare('INSERT OR IGNORE INTO revoked_tokens (jti, expires_at) VALUES (?1, ?2)').bind(tokenId, expiresAt),
  ]);
