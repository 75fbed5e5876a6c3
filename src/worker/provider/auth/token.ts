import { sign, verify } from 'hono/jwt';

const TOKEN_LIFETIME_SECONDS = 8 * 60 * 60;

export interface TokenSettings {
  secret: string;
  audience: string;
}

/** What a valid token says about its holder. */
export interface TokenClaims {
  userId: number;
  /** The user's session version when the token was issued (claim `sv`); a newer one revokes it. */
  sessionVersion: number;
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
    { sub: String(id), sv: sessionVersion, aud: audience, iat: now, exp: now + TOKEN_LIFETIME_SECONDS },
    requireSecret(secret),
    'HS256',
  );
};

/** The token's claims, or null when it is invalid, expired, for another audience or has no session version. */
export const readToken = async (token: string, { secret, audience }: TokenSettings): Promise<TokenClaims | null> => {
  try {
    const payload = await verify(token, requireSecret(secret), { alg: 'HS256', aud: audience });
    const userId = Number(payload.sub);
    const { sv } = payload;
    if (!Number.isSafeInteger(userId) || userId < 1) return null;
    if (typeof sv !== 'number' || !Number.isSafeInteger(sv) || sv < 0) return null;
    return { userId, sessionVersion: sv };
  } catch (error) {
    if (error instanceof Error && error.message === 'JWT_SECRET is not configured') throw error;
    return null;
  }
};
