import type { MiddlewareHandler } from 'hono';
import { changesOfRequest } from '../db/live';
import { notificationsOfRequest } from '../db/notifications';
import type { ProviderBindings } from '../env';
import { committedWrite, requestIdOf } from '../http/audit-context';
import type { ProviderEnv } from '../http/auth';
import { sendRequestMail } from '../mail/send';
import { teamHub } from './team-hub';

const publish = async (env: ProviderBindings, actorId: number, requestId: string | null, signedOut: boolean) => {
  const [changes, notifications] = requestId
    ? await Promise.all([changesOfRequest(env.DB, actorId, requestId), notificationsOfRequest(env.DB, actorId, requestId)])
    : [[], []];
  // Whose sessions the write may have ended: a sign-out's own, and any account it changed (the only
  // writes that deactivate, change a role or a password). Any other write ends none, so the hub
  // checks no session after it; an expiring token is closed by the hub's alarm.
  const sessionsOf = [...(signedOut ? [actorId] : []), ...changes.filter((change) => change.entity === 'user').map((change) => change.id)];
  if (changes.length || notifications.length || sessionsOf.length) await teamHub(env).publish({ changes, notifications, sessionsOf });
};

/**
 * The one place every committed write reaches the live channel (docs/architecture.md#live-updates):
 * after a signed-in write has answered with success, its batch has committed, and the hub is told
 * what the audit entries of that request name, without holding up the answer.
 */
export const publishChanges: MiddlewareHandler<ProviderEnv> = async (c, next) => {
  await next();
  const actorId = c.get('userId');
  const live = c.get('live');
  if (!committedWrite(c) || actorId === undefined) return;
  const requestId = requestIdOf(c);
  c.executionCtx.waitUntil(
    publish(c.env, actorId, requestId, live === 'signedOut').catch((error: unknown) => console.error('live: publish failed', error)),
  );
  // The mail the write queued in its batch goes now; what fails is left to the minute trigger.
  if (requestId) c.executionCtx.waitUntil(sendRequestMail(c.env, requestId).catch((error: unknown) => console.error('mail: send failed', error)));
};
