import type { TokenClaims } from '../auth/token';

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Whether a token may still be used: its account exists and is active, and it was not signed
 * out. One query, the check behind every signed-in call.
 */
export const isSessionActive = async (db: D1Database, { userId, tokenId }: TokenClaims) =>
  (
    await db
      .prepare(
        `SELECT u.is_active = 1 AND NOT EXISTS (SELECT 1 FROM revoked_tokens WHERE jti = ?2) AS ok
         FROM users u WHERE u.id = ?1`,
      )
      .bind(userId, tokenId)
      .first<{ ok: number }>()
  )?.ok === 1;

/**
 * Ends one token: its id is kept until the token would have expired anyway, and ids past that
 * are deleted in the same batch, so the table holds only tokens that could still be presented.
 */
export const revokeSession = (db: D1Database, { tokenId, expiresAt }: TokenClaims) =>
  db.batch([
    db.prepare('DELETE FROM revoked_tokens WHERE expires_at <= ?1').bind(nowSeconds()),
    db.prepare('INSERT OR IGNORE INTO revoked_tokens (jti, expires_at) VALUES (?1, ?2)').bind(tokenId, expiresAt),
  ]);
