import type { MailBindings } from './outgoing';

/**
 * The entry points of outgoing mail (docs/architecture.md#mail). The code behind them (rendering,
 * MIME, the digest) is loaded with a dynamic import, so it stays out of the Worker's cold-start
 * bundle (docs/decisions.md#performance-budgets); an isolate loads it once, at its first write or
 * minute trigger.
 */
export type { MailBindings };

const outgoing = () => import('./outgoing');

/** Sends the mail one committed request queued; what fails is retried by the minute trigger. */
export const sendRequestMail = async (env: MailBindings, requestId: string, now = Date.now()) => (await outgoing()).sendRequestMail(env, requestId, now);

/** The minute trigger's mail: digests due this hour, mail due, bodies past 30 days. */
export const mailOnSchedule = async (env: MailBindings, now = new Date()) => (await outgoing()).mailOnSchedule(env, now);
