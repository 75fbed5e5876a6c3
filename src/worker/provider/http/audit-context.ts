import type { Context } from 'hono';
import type { AuditContext } from '../db/audit';
import type { ProviderEnv } from './auth';

// The passthrough's request id (Hono's requestId, at most 128 characters), so an entry can be
// matched to the request's log line.
export const requestIdOf = (c: Context) => c.req.header('x-request-id')?.slice(0, 128) || null;

/** Who is acting and in which request, for the audit entry of a signed-in call's write. */
export const auditContext = (c: Context<ProviderEnv>): AuditContext & { actorId: number } => ({ actorId: c.get('userId'), requestId: requestIdOf(c) });
