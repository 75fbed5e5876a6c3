import { sign, verify } from 'hono/jwt';
import type { LoginResponse, User } from '../../../shared/types';

const TOKEN_LIFETIME_SECONDS = 8 * 60 * 60;

// A user id as the provider writes it: plain digits, no sign, no leading zero, no spaces, no
// fraction or exponent. Number() would read `0x1a`, ` 26 `, `26.0` and `026` all as 26.
const CANONICAL_ID = /^[1-9]\d{0,15}$/;

export interface TokenSettings {
  secret: string;
  audience: string;
}

/** What a valid token says: whose it is, the session it belongs to, its own id (for sign-out) and when it expires. */
export interface TokenClaims {
  userId: number;
  /** The user's session version when the token was issued (claim `sv`); a newer one revokes it. */
  sessionVersion: number;
  /** The token's `jti`: random, so a sign-out can end exactly this token. */
  tokenId: string;
  /** `exp`, in Unix seconds. */
  expiresAt: number;
}

export interface TokenSubject {
  id: number;
  sessionVersion: number;
}

const requireSecret = (secret: string) => {
  if (!secret) throw new Error('JWT_SECRET is not configured');
  return secret;
};

export const issueToken = ({ id, sessionVersion }: TokenSubject, { secret, audience }: TokenSettings) => {
  const now = Math.floor(Date.now() / 1000);
  return sign(
    { sub: String(id), sv: sessionVersion, aud: audience, iat: now, exp: now + TOKEN_LIFETIME_SECONDS, jti: crypto.randomUUID() },
    requireSecret(secret),
    'HS256',
  );
};

/**
 * The claims of a valid token, or null when it is invalid, expired, for another audience, or
 * lacks what every token this provider issues has: `exp`, a canonical `sub`, a `jti` and a
 * session version.
 */
export const readToken = async (token: string, { secret, audience }: TokenSettings): Promise<TokenClaims | null> => {
  try {
    const { sub, exp, jti, sv } = await verify(token, requireSecret(secret), { alg: 'HS256', aud: audience });
    if (typeof sub !== 'string' || !CANONICAL_ID.test(sub)) return null;
    if (typeof exp !== 'number' || !Number.isSafeInteger(exp)) return null;
    if (typeof jti !== 'string' || !jti || jti.length > 64) return null;
    if (typeof sv !== 'number' || !Number.isSafeInteger(sv) || sv < 0) return null;
    const userId = Number(sub);
    return Number.isSafeInteger(userId) ? { userId, sessionVersion: sv, tokenId: jti, expiresAt: exp } : null;
  } catch (error) {
    if (error instanceof Error && error.message === 'JWT_SECRET is not configured') throw error;
    return null;
  }
};

/** What every way of signing in answers: the session token and who it is for. */
export const loginAnswer = (token: string, user: User): LoginResponse => ({
  token,
  firstName: user.firstName,
  surname: user.surname,
  email: user.email,
  userId: user.id,
  role: user.role,
  timeZone: user.timeZone,
});
