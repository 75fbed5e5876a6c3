import { Hono, type Context } from 'hono';
import { addPasskeySchema, passkeyLoginSchema, renamePasskeySchema } from '../../../shared/schemas/passkeys';
import type { PasskeyCreationOptions, PasskeyRequestOptions } from '../../../shared/types';
import { issueToken, loginAnswer } from '../auth/token';
import {
  newChallenge,
  PUBLIC_KEY_ALGORITHMS,
  readAssertion,
  readRegistration,
  relyingPartyOf,
  signatureMatches,
  userHandleOf,
  WebAuthnRefused,
} from '../auth/webauthn';
import { auditEvent } from '../db/audit';
import {
  addPasskey,
  CHALLENGE_GONE,
  CHALLENGE_SECONDS,
  createChallenge,
  credentialsOf,
  discardChallenge,
  findPasskeyByCredential,
  listPasskeys,
  PASSKEY_METHOD,
  recordPasskeyLogin,
  removePasskey,
  renamePasskey,
} from '../db/passkeys';
import { findUser } from '../db/users';
import { auditContext, requestIdOf } from '../http/audit-context';
import { requireAuth, type ProviderEnv } from '../http/auth';
import { badRequest, unauthorized } from '../http/errors';
import { foundOr404, readId } from '../http/params';
import { jsonBody } from '../http/validate';

/** The name passkey prompts show for this app. */
const RP_NAME = 'Staff';

// The passthrough forwards the host and scheme the browser used (src/worker/passthrough.ts), the
// only ones the browser's passkeys are bound to.
const partyOf = (c: Context<ProviderEnv>) => relyingPartyOf(c.req.url, c.req.header('x-forwarded-host'), c.req.header('x-forwarded-proto'));

const SIGN_IN_REFUSED = 'This passkey cannot sign in';

/** A refused sign-in: its challenge used up, and a `login_failed` entry for the account when it is known. */
const refuseLogin = async (c: Context<ProviderEnv>, challenge: string | null, userId: number | null, message: string): Promise<never> => {
  const entry = auditEvent(c.env.DB, { actorId: null, requestId: requestIdOf(c) }, { action: 'login_failed', entity: 'session', entityId: userId, changes: PASSKEY_METHOD });
  if (challenge) await discardChallenge(c.env.DB, challenge, 'login', null, entry);
  else await entry.run();
  throw unauthorized(message);
};

export const passkeyRoutes = new Hono<ProviderEnv>()
  // Signing in with a passkey: open to anyone, like auth/login.
  .post('/login-options', async (c) => {
    const challenge = newChallenge();
    await createChallenge(c.env.DB, challenge, 'login', null);
    return c.json<PasskeyRequestOptions>({ challenge, rpId: partyOf(c).id, timeout: CHALLENGE_SECONDS * 1000, userVerification: 'preferred', allowCredentials: [] });
  })
  .post('/login', jsonBody(passkeyLoginSchema), async (c) => {
    const { response, audience } = c.req.valid('json');
    if (audience !== c.env.APP_AUDIENCE) throw unauthorized('Unknown audience');
    let assertion;
    try {
      assertion = readAssertion(response.response, partyOf(c));
    } catch (error) {
      if (error instanceof WebAuthnRefused) return refuseLogin(c, null, null, error.message);
      throw error;
    }
    const { challenge } = assertion;
    const passkey = await findPasskeyByCredential(c.env.DB, response.id);
    if (!passkey) return refuseLogin(c, challenge, null, 'This passkey is not registered here');
    const userId = passkey.user.id;
    // The handle the authenticator keeps with the credential must be the one it was made for.
    if (response.response.userHandle !== userHandleOf(userId)) return refuseLogin(c, challenge, userId, 'The passkey answered for another account');
    if (!(await signatureMatches(assertion, passkey))) return refuseLogin(c, challenge, userId, 'The passkey signature does not match');
    if (!passkey.user.isActive) return refuseLogin(c, challenge, userId, SIGN_IN_REFUSED);
    // A counter that does not rise means two authenticators hold this key: one is a copy.
    const counted = assertion.signCount > 0 || passkey.signCount > 0;
    if (counted && assertion.signCount <= passkey.signCount) return refuseLogin(c, challenge, userId, 'The passkey signature counter went backwards');

    const outcome = await recordPasskeyLogin(c.env.DB, { passkey, challenge, signCount: assertion.signCount }, { requestId: requestIdOf(c) });
    if (outcome === 'challenge') return refuseLogin(c, null, userId, CHALLENGE_GONE);
    if (outcome === 'refused') return refuseLogin(c, null, userId, SIGN_IN_REFUSED);

    const { user, sessionVersion } = passkey;
    const token = await issueToken({ id: user.id, sessionVersion }, { secret: c.env.JWT_SECRET, audience: c.env.APP_AUDIENCE });
    return c.json(loginAnswer(token, user));
  })
  // The rest is the signed-in person's own passkeys.
  .use(requireAuth)
  .post('/register-options', async (c) => {
    const userId = c.get('userId');
    const [user, excludeCredentials] = await Promise.all([findUser(c.env.DB, userId).then((found) => foundOr404(found, 'User')), credentialsOf(c.env.DB, userId)]);
    const challenge = newChallenge();
    await createChallenge(c.env.DB, challenge, 'register', userId);
    c.set('live', 'wroteNothing');
    return c.json<PasskeyCreationOptions>({
      challenge,
      rp: { id: partyOf(c).id, name: RP_NAME },
      user: { id: userHandleOf(userId), name: user.email, displayName: `${user.firstName} ${user.surname}` },
      pubKeyCredParams: PUBLIC_KEY_ALGORITHMS.map((alg) => ({ type: 'public-key' as const, alg })),
      timeout: CHALLENGE_SECONDS * 1000,
      attestation: 'none',
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'preferred' },
      excludeCredentials,
    });
  })
  .post('/', jsonBody(addPasskeySchema), async (c) => {
    const { name, response } = c.req.valid('json');
    const audit = auditContext(c);
    let credential;
    try {
      credential = readRegistration(response.response, partyOf(c));
    } catch (error) {
      if (!(error instanceof WebAuthnRefused)) throw error;
      throw badRequest(error.message, { response: [error.message] });
    }
    const passkey = await addPasskey(c.env.DB, { ...credential, name, transports: response.response.transports ?? [] }, audit);
    return c.json(passkey, 201);
  })
  .get('/', async (c) => c.json({ items: await listPasskeys(c.env.DB, c.get('userId')) }))
  .patch('/:id', jsonBody(renamePasskeySchema), async (c) => {
    const id = readId(c);
    return c.json(await renamePasskey(c.env.DB, id, c.req.valid('json').name, auditContext(c)));
  })
  .delete('/:id', async (c) => {
    await removePasskey(c.env.DB, readId(c), auditContext(c));
    return c.body(null, 204);
  });
