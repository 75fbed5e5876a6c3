import type { MiddlewareHandler } from 'hono';
import type { Env } from '../../env';
import { readToken, type TokenClaims } from '../auth/token';
import { isSessionActive } from '../db/sessions';
import { forbidden, unauthorized } from './errors';

export type ProviderEnv = { Bindings: Env; Variables: { userId: number; token: TokenClaims } };

const READS = new Set(['GET', 'HEAD']);
const invalidToken = () => unauthorized('Invalid or expired token');

/**
 * Accepts only a valid, unexpired, not signed-out token for this audience whose user still exists
 * and is active.
 * A read changes nothing, so it runs alongside the account check instead of after it (one
 * database round trip less on every page's data); its answer is sent only if the check passes.
 * A write waits for the check.
 */
export const requireAuth: MiddlewareHandler<ProviderEnv> = async (c, next) => {
  const match = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '');
  if (!match?.[1]) throw unauthorized();
  const claims = await readToken(match[1], { secret: c.env.JWT_SECRET, audience: c.env.APP_AUDIENCE });
  if (claims === null) throw invalidToken();
  c.set('userId', claims.userId);
  c.set('token', claims);
  const active = isSessionActive(c.env.DB, claims);
  if (!READS.has(c.req.method)) {
    if (!(await active)) throw invalidToken();
    return next();
  }
  // Hono turns a handler's error into its response, and an error thrown here, after the handler
  // has finished, replaces that response.
  const [check] = await Promise.allSettled([active, next()]);
  if (check.status === 'rejected') throw check.reason;
  if (!check.value) throw invalidToken();
};

/** Profile and password calls act on the caller's own account only. */
export const assertSelf = (userId: number, id: number) => {
  if (userId !== id) throw forbidden('You can only change your own account');
};
