import { Hono } from 'hono';
import { loginSchema } from '../../../shared/schemas/auth';
import type { LoginResponse } from '../../../shared/types';
import { DUMMY_HASH, verifyPassword } from '../auth/password';
import { assertNotLimited, recordFailure, recordSuccess } from '../auth/rate-limit';
import { issueToken } from '../auth/token';
import { auditEvent } from '../db/audit';
import { findCredentials } from '../db/users';
import { requestIdOf } from '../http/audit-context';
import type { ProviderEnv } from '../http/auth';
import { unauthorized } from '../http/errors';
import { readBody } from '../http/validate';

// The passthrough sets X-Forwarded-For from the connecting address; the embedded provider is
// only reachable through it, so the header can be trusted here.
const clientAddress = (header: string | undefined) => header?.split(',')[0]?.trim() || 'unknown';

export const authRoutes = new Hono<ProviderEnv>().post('/login', async (c) => {
  const { username, password, audience } = await readBody(c, loginSchema);
  if (audience !== c.env.APP_AUDIENCE) throw unauthorized('Unknown audience');

  const subject = { email: username, ip: clientAddress(c.req.header('x-forwarded-for')) };
  await assertNotLimited(c.env.DB, subject);

  const credentials = await findCredentials(c.env.DB, username);
  const passwordOk = await verifyPassword(password, credentials?.passwordHash ?? DUMMY_HASH);
  const requestId = requestIdOf(c);
  // Every attempt is in the log: entity `session`, the account's id when the email is known.
  const attempt = (action: 'login' | 'login_failed', actorId: number | null) =>
    auditEvent(c.env.DB, { actorId, requestId }, { action, entity: 'session', entityId: credentials?.user.id ?? null });
  if (!credentials || !passwordOk || !credentials.user.isActive) {
    await recordFailure(c.env.DB, subject, attempt('login_failed', null));
    throw unauthorized('Invalid email or password');
  }
  const { user, sessionVersion } = credentials;
  await recordSuccess(c.env.DB, subject, attempt('login', user.id));

  const token = await issueToken({ id: user.id, sessionVersion }, { secret: c.env.JWT_SECRET, audience: c.env.APP_AUDIENCE });
  return c.json<LoginResponse>({ token, firstName: user.firstName, surname: user.surname, email: user.email, userId: user.id, role: user.role });
});
