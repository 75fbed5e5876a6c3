import type { MiddlewareHandler } from 'hono';
import type { User } from '../../../shared/types';
import type { Env } from '../../env';
import { readToken } from '../auth/token';
import { findUser } from '../db/users';
import { forbidden, unauthorized } from './errors';

export type ProviderEnv = { Bindings: Env; Variables: { user: User } };

/** Accepts only a valid, unexpired token for this audience whose user still exists and is active. */
export const requireAuth: MiddlewareHandler<ProviderEnv> = async (c, next) => {
  const match = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '');
  if (!match?.[1]) throw unauthorized();
  const userId = await readToken(match[1], { secret: c.env.JWT_SECRET, audience: c.env.APP_AUDIENCE });
  const user = userId === null ? null : await findUser(c.env.DB, userId);
  if (!user?.isActive) throw unauthorized('Invalid or expired token');
  c.set('user', user);
  await next();
};

/** Profile and password calls act on the caller's own account only. */
export const assertSelf = (user: User, id: number) => {
  if (user.id !== id) throw forbidden('You can only change your own account');
};
