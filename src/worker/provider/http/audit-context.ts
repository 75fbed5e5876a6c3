import type { Context } from 'hono';
import type { AuditContext } from '../db/audit';
import type { ProviderEnv } from './auth';

const ids = new WeakMap<Request, string | null>();

/**
 * The id this request's audit entries and notifications carry: the passthrough's request id (at
 * most 128 characters), so an entry is found from the request's log line, then a part made here.
 * A caller may send its own X-Request-Id, and send it again: the live channel finds a write's
 * entries by this id (docs/architecture.md#live-updates), and must never find an earlier
 * request's as well.
 */
export const requestIdOf = (c: Context) => {
  const request = c.req.raw;
  if (!ids.has(request)) {
    const sent = c.req.header('x-request-id')?.slice(0, 128);
    ids.set(request, sent ? `${sent}~${crypto.randomUUID().slice(0, 8)}` : null);
  }
  return ids.get(request) ?? null;
};

/** Who is acting and in which request, for the audit entry of a signed-in call's write. */
export const auditContext = (c: Context<ProviderEnv>): AuditContext & { actorId: number } => ({ actorId: c.get('userId'), requestId: requestIdOf(c) });

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether the answered request committed a write whose audit entries (and webhook deliveries) the
 * after-commit steps should look for: a success to anything but a read, unless the route said it
 * wrote nothing (a live ticket).
 */
export const committedWrite = (c: Context<ProviderEnv>) => !READS.has(c.req.method) && c.res.status < 400 && c.get('live') !== 'wroteNothing';
