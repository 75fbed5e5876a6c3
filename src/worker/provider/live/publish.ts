import type { MiddlewareHandler } from 'hono';
import { changesOfRequest } from '../db/live';
import { notificationsOfRequest } from '../db/notifications';
import type { ProviderBindings } from '../env';
import { committedWrite, requestIdOf } from '../http/audit-context';
import type { ProviderEnv } from '../http/auth';
import { sendRequestMail, type MailBindings } from '../mail/send';
import { teamHub } from './team-hub';

type PublishBindings = Pick<ProviderBindings, 'DB' | 'LIVE'> & MailBindings;

const publish = async (env: PublishBindings, actorId: number | null, requestId: string | null, signedOut: boolean) => {
  const [changes, notifications] = requestId
    ? await Promise.all([changesOfRequest(env.DB, actorId, requestId), notificationsOfRequest(env.DB, actorId, requestId)])
    : [[], []];
  // Whose sessions the write may have ended: a sign-out's own, and any account it changed (the only
  // writes that deactivate, change a role or a password). Any other write ends none, so the hub
  // checks no session after it; an expiring token is closed by the hub's alarm.
  const sessionsOf = [...(signedOut && actorId !== null ? [actorId] : []), ...changes.filter((change) => change.entity === 'user').map((change) => change.id)];
  if (changes.length || notifications.length || sessionsOf.length) await teamHub(env).publish({ changes, notifications, sessionsOf });
};

/**
 * What follows a committed write, off the answer's path: the live channel hears of it and the mail
 * its batch queued goes out (what fails is left to the minute trigger). The email() handler's
 * writes take the same steps as the API's.
 */
export const afterCommit = (env: PublishBindings, waitUntil: (work: Promise<unknown>) => void, actorId: number | null, requestId: string | null, signedOut = false) => {
  waitUntil(publish(env, actorId, requestId, signedOut).catch((error: unknown) => console.error('live: publish failed', error)));
  if (requestId) waitUntil(sendRequestMail(env, requestId).catch((error: unknown) => console.error('mail: send failed', error)));
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
  afterCommit(c.env, (work) => c.executionCtx.waitUntil(work), actorId, requestIdOf(c), live === 'signedOut');
};
