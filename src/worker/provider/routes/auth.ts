import { Hono } from 'hono';
import { loginSchema } from '../../../shared/schemas/auth';
import { DUMMY_HASH, verifyPassword } from '../auth/password';
import { countAttempt, recordSuccess } from '../db/login-attempts';
import { issueToken, loginAnswer } from '../auth/token';
import { auditEvent } from '../db/audit';
import { revokeSession } from '../db/sessions';
import { findCredentials } from '../db/users';
import { requestIdOf } from '../http/audit-context';
import { requireAuth, type ProviderEnv } from '../http/auth';
import { forbidden, unauthorized } from '../http/errors';
import { jsonBody } from '../http/validate';

// The passthrough sets X-Forwarded-For only from an address the Worker trusts (see
// src/worker/client-address.ts); the embedded provider is only reachable through it.
const clientAddress = (header: string | undefined) => header?.split(',')[0]?.trim() || null;

export const authRoutes = new Hono<ProviderEnv>()
  .post('/login', jsonBody(loginSchema), async (c) => {
    const { username, password, audience } = c.req.valid('json');
    if (audience !== c.env.APP_AUDIENCE) throw unauthorized('Unknown audience');
    // docs/operations.md#cloudflare-access: a company can require its own sign-in for everyone.
    if (c.env.ACCESS_REQUIRED === 'true') throw forbidden('Sign in through your company account');

    const subject = { email: username, ip: clientAddress(c.req.header('x-forwarded-for')) };
    await countAttempt(c.env.DB, subject);

    const credentials = await findCredentials(c.env.DB, username);
    const passwordOk = await verifyPassword(password, credentials?.passwordHash ?? DUMMY_HASH);
    const requestId = requestIdOf(c);
    // Every attempt is in the log: entity `session`, the account's id when the email is known. A
    // failed one keeps the email tried, the only name it has; an unknown email's entry has no
    // record id, so only those who may read the whole log (admins) ever see it.
    const attempt = (action: 'login' | 'login_failed', actorId: number | null) =>
      auditEvent(
        c.env.DB,
        { actorId, requestId },
        { action, entity: 'session', entityId: credentials?.user.id ?? null, changes: action === 'login_failed' ? { email: [null, username] } : {} },
      );
    if (!credentials || !passwordOk || !credentials.user.isActive) {
      // The attempt was already counted before the password was checked; this is its record.
      await attempt('login_failed', null).run();
      throw unauthorized('Invalid email or password');
    }
    const { user, sessionVersion } = credentials;
    await recordSuccess(c.env.DB, subject, attempt('login', user.id));

    const token = await issueToken({ id: user.id, sessionVersion }, { secret: c.env.JWT_SECRET, audience: c.env.APP_AUDIENCE });
    return c.json(loginAnswer(token, user));
  })
  // Ends the presented token on the server; every later call with it gets 401.
  .post('/logout', requireAuth, async (c) => {
    await revokeSession(c.env.DB, c.get('token'));
    c.set('live', 'signedOut');
    return c.body(null, 204);
  });
