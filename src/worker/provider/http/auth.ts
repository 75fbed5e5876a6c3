import type { Context, MiddlewareHandler } from 'hono';
import { forbiddenMessage, may, type Permission } from '../../../shared/permissions';
import type { ProviderBindings } from '../env';
import { hashApiToken, isApiToken, isWellFormedApiToken } from '../auth/api-token';
import { readToken, type TokenClaims } from '../auth/token';
import { findApiToken, minuteOf, touchApiToken } from '../db/api-tokens';
import { findSession, type Session } from '../db/sessions';
import { forbidden, unauthorized } from './errors';

export type ProviderEnv = {
  Bindings: ProviderBindings;
  /**
   * `session` settles once the account check has passed; a role check awaits it. `token` is for
   * sign-out. `live` is what the live channel must know of a call beyond its audit entries
   * (docs/architecture.md#live-updates): it signed its own token out, or it wrote nothing.
   * A call made with a personal API token has no `token`: such calls never reach the routes that
   * read it (SESSION_ONLY below).
   */
  Variables: { userId: number; token: TokenClaims; session: Promise<Session>; live?: 'signedOut' | 'wroteNothing' };
};

const READS = new Set(['GET', 'HEAD']);
const invalidToken = () => unauthorized('Invalid or expired token');

/**
 * What a personal API token may not call (docs/api.md#api-tokens): signing in and out, passkeys,
 * API tokens themselves, the live channel (whose tickets are tied to a session), and the change of
 * one's own password (which answers a session token). A token may do what its person may, but not
 * turn itself into a session or another credential that would outlive it.
 */
const SESSION_ONLY = /\/v1\/(?:auth|live)(?:\/|$)|\/v1\/users\/change-password\/?$/;
export const SESSION_ONLY_MESSAGE = 'API tokens cannot make this call; sign in instead';
export const READ_TOKEN_MESSAGE = 'This API token may only read';

/**
 * A personal API token (`sat_…`) in place of a session: one query finds it unexpired and its
 * person active and not changed since it was made (db/api-tokens.ts), with their role. A `read`
 * token is refused any write. The minute of use is written only when it changed, alongside the
 * handler, so most calls cost no D1 call beyond the lookup.
 */
const apiTokenAuth = async (c: Context<ProviderEnv>, next: () => Promise<void>, bearer: string) => {
  if (!isWellFormedApiToken(bearer)) throw invalidToken();
  const minute = minuteOf();
  const found = await findApiToken(c.env.DB, await hashApiToken(bearer), minute);
  if (!found) throw invalidToken();
  if (SESSION_ONLY.test(c.req.path)) throw forbidden(SESSION_ONLY_MESSAGE);
  if (found.access === 'read' && !READS.has(c.req.method)) throw forbidden(READ_TOKEN_MESSAGE);
  c.set('userId', found.userId);
  c.set('session', Promise.resolve({ role: found.role }));
  await Promise.all([found.stale ? touchApiToken(c.env.DB, found.id, minute) : null, next()]);
};

/**
 * Accepts a personal API token (apiTokenAuth), or else only a valid, unexpired, not signed-out
 * token for this audience whose user still exists, is active and is still on the token's session
 * version (one query checks them all). A
 * read changes nothing, so it runs alongside the account check instead of after it (one database
 * round trip less on every page's data); its answer is sent only if the check passes. A write
 * waits for the check.
 */
export const requireAuth: MiddlewareHandler<ProviderEnv> = async (c, next) => {
  const match = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '');
  if (!match?.[1]) throw unauthorized();
  if (isApiToken(match[1])) return apiTokenAuth(c, next, match[1]);
  const claims = await readToken(match[1], { secret: c.env.JWT_SECRET, audience: c.env.APP_AUDIENCE });
  if (claims === null) throw invalidToken();
  c.set('userId', claims.userId);
  c.set('token', claims);
  const session = findSession(c.env.DB, claims).then((found) => {
    if (!found) throw invalidToken();
    return found;
  });
  c.set('session', session);
  if (!READS.has(c.req.method)) {
    await session;
    return next();
  }
  // Hono turns a handler's error into its response, and an error thrown here, after the handler
  // has finished, replaces that response.
  const [check] = await Promise.allSettled([session, next()]);
  if (check.status === 'rejected') throw check.reason;
};

/** 403 naming the role the caller lacks, unless the caller's role has the permission. */
export const assertMay = async (c: Context<ProviderEnv>, permission: Permission) => {
  const { role } = await c.get('session');
  if (!may(role, permission)) throw forbidden(forbiddenMessage(permission));
};

/** Lets the request on only for roles with the permission; after requireAuth, before the body is read. */
export const requireRole =
  (permission: Permission): MiddlewareHandler<ProviderEnv> =>
  async (c, next) => {
    await assertMay(c, permission);
    await next();
  };

/** Profile and password calls act on the caller's own account only. */
export const assertSelf = (userId: number, id: number) => {
  if (userId !== id) throw forbidden('You can only change your own account');
};
