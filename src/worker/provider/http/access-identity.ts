import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { AccessKeysUnavailable, verifyAccessToken, type AccessSettings } from '../auth/access';
import type { ProviderBindings } from '../env';
import type { ProviderEnv } from './auth';

/** The Access settings, when both are set; otherwise Access sign-in is off. */
export const accessSettingsOf = (env: ProviderBindings): AccessSettings | null => {
  const teamDomain = env.ACCESS_TEAM_DOMAIN?.trim();
  const audience = env.ACCESS_AUD?.trim();
  return teamDomain && audience ? { teamDomain, audience } : null;
};

/**
 * What Cloudflare Access says of this request: `off` (not set up), `none` (no token came with it),
 * `invalid` (a token that does not verify), `unavailable` (the team's keys could not be fetched)
 * or the verified email. Access sends the token in a header on every request it passes, and in the
 * `CF_Authorization` cookie the browser keeps; the header wins.
 */
export const accessIdentity = async (c: Context<ProviderEnv>): Promise<{ email: string } | { refused: 'off' | 'none' | 'invalid' | 'unavailable' }> => {
  const settings = accessSettingsOf(c.env);
  if (!settings) return { refused: 'off' };
  const token = c.req.header('cf-access-jwt-assertion')?.trim() || getCookie(c, 'CF_Authorization');
  if (!token) return { refused: 'none' };
  try {
    const email = await verifyAccessToken(token, settings);
    return email ? { email } : { refused: 'invalid' };
  } catch (error) {
    if (!(error instanceof AccessKeysUnavailable)) throw error;
    console.error('provider: Cloudflare Access keys', error.message);
    return { refused: 'unavailable' };
  }
};
