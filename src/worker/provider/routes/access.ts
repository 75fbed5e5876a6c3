import { Hono } from 'hono';
import { accessLoginSchema, type AccessIdentity } from '../../../shared/schemas/access';
import { issueToken, loginAnswer } from '../auth/token';
import { auditEvent } from '../db/audit';
import { countAttempt } from '../db/login-attempts';
import { findCredentials } from '../db/users';
import { accessIdentity } from '../http/access-identity';
import { requestIdOf } from '../http/audit-context';
import type { ProviderEnv } from '../http/auth';
import { forbidden, HttpError, unauthorized } from '../http/errors';
import { jsonBody } from '../http/validate';

// How the sign-in is recorded in the audit log, beside the email of a refused one.
const METHOD: Record<string, [null, string]> = { method: [null, 'access'] };
// The sign-in limiter's name for tokens that do not verify: no email can be trusted from them,
// and no account's email can be this.
const UNVERIFIED = '(unverified access token)';

const REFUSALS = {
  off: 'Cloudflare Access is not set up',
  none: 'No company sign-in came with this request',
  invalid: 'Your company sign-in could not be verified',
} as const;

// As in routes/auth.ts: the passthrough sets X-Forwarded-For only from an address the Worker trusts.
const clientAddress = (header: string | undefined) => header?.split(',')[0]?.trim() || null;

/**
 * Signing in through Cloudflare Access (docs/api.md#cloudflare-access). Access has already
 * checked the person at the edge; an account is never created here, only found by the email
 * Access vouches for.
 */
export const accessRoutes = new Hono<ProviderEnv>()
  // Who Access says is asking, so the sign-in page can offer "Continue as".
  .get('/', async (c) => {
    const identity = await accessIdentity(c);
    return 'email' in identity ? c.json<AccessIdentity>({ email: identity.email }) : c.body(null, 204);
  })
  .post('/', jsonBody(accessLoginSchema), async (c) => {
    if (c.req.valid('json').audience !== c.env.APP_AUDIENCE) throw unauthorized('Unknown audience');
    const identity = await accessIdentity(c);
    if ('refused' in identity) {
      const { refused } = identity;
      if (refused === 'unavailable') throw new HttpError(503, { message: 'Cloudflare Access could not be reached: try again in a moment' });
      if (refused !== 'invalid') throw unauthorized(REFUSALS[refused]);
    }
    const email = 'email' in identity ? identity.email : null;
    const ip = clientAddress(c.req.header('x-forwarded-for'));
    const requestId = requestIdOf(c);
    const credentials = email ? await findCredentials(c.env.DB, email) : null;
    if (!credentials?.user.isActive) {
      // Counted like a wrong password, so refusals cannot fill the audit log without limit.
      await countAttempt(c.env.DB, { email: email ?? UNVERIFIED, ip });
      const changes = email ? { email: [null, email] as [null, string], ...METHOD } : METHOD;
      await auditEvent(c.env.DB, { actorId: null, requestId }, { action: 'login_failed', entity: 'session', entityId: credentials?.user.id ?? null, changes }).run();
      throw email ? forbidden(`No staff account for ${email}`) : unauthorized(REFUSALS.invalid);
    }
    const { user, sessionVersion } = credentials;
    await auditEvent(c.env.DB, { actorId: user.id, requestId }, { action: 'login', entity: 'session', entityId: user.id, changes: METHOD }).run();
    const token = await issueToken({ id: user.id, sessionVersion }, { secret: c.env.JWT_SECRET, audience: c.env.APP_AUDIENCE });
    return c.json(loginAnswer(token, user));
  });
