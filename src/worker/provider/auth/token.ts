import { sign, verify } from 'hono/jwt';

const TOKEN_LIFETIME_SECONDS = 8 * 60 * 60;

export interface TokenSettings {
  secret: string;
  audience: string;
}

const requireSecret = (secret: string) => {
  if (!secret) throw new Error('JWT_SECRET is not configured');
  return secret;
};

export const issueToken = (userId: number, { secret, audience }: TokenSettings) => {
  const now = Math.floor(Date.now() / 1000);
  return sign({ sub: String(userId), aud: audience, iat: now, exp: now + TOKEN_LIFETIME_SECONDS }, requireSecret(secret), 'HS256');
};

/** The user id the token was issued to, or null when it is invalid, expired or for another audience. */
export const readToken = async (token: string, { secret, audience }: TokenSettings): Promise<number | null> => {
  try {
    const payload = await verify(token, requireSecret(secret), { alg: 'HS256', aud: audience });
    const id = Number(payload.sub);
    return Number.isSafeInteger(id) && id > 0 ? id : null;
  } catch (error) {
    if (error instanceof Error && error.message === 'JWT_SECRET is not configured') throw error;
    return null;
  }
};
