import type { Role } from '../../../shared/types';
import type { TokenClaims } from '../auth/token';

const nowSeconds = () => Math.floor(Date.now() / 1000);

export interface Session {
  role: Role;
}

/**
 * The caller's role while the token may still be used: its account exists and is active, is
 * still on the token's session version, and the token was not signed out; null otherwise. One
 * query, the check behind every signed-in call.
 */
export const findSession = (db: D1Database, { userId, sessionVersion, tokenId }: TokenClaims) =>
  db
    .prepare(
      `SELECT role FROM users
       WHERE id = ?1 AND is_active = 1 AND session_version = ?2 AND NOT EXISTS (SELECT 1 FROM revoked_tokens WHERE jti = ?3)`,
    )
    .bind(userId, sessionVersion, tokenId)
    .first<Session>();

/**
 * Ends one token: its id is kept until the token would have expired anyway, and ids past that
 * are deleted in the same batch, so the table holds only tokens that could still be presented.
 */
export const revokeSession = (db: D1Database, { tokenId, expiresAt }: TokenClaims) =>
  db.batch([
    db.prepare('DELETE FROM revoked_tokens WHERE expires_at <= ?1').bind(nowSeconds()),
    db.prepare('INSERT OR IGNORE INTO revoked_tokens (jti, expires_at) VALUES (?1, ?2)').bind(tokenId, expiresAt),
  ]);
