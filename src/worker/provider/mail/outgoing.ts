import { EmailMessage } from 'cloudflare:email';
import { claimDueMail, claimRequestMail, sendClaimed, type OutgoingMail, type SendMail } from '../db/mail/delivery';
import { clearOldBodies, queueDigests } from '../db/mail/digest';
import type { ProviderBindings } from '../env';
import { buildMime } from './mime';
import { renderClaimed, type RenderSettings } from './render';

/**
 * Outgoing mail through the `MAIL` send_email binding (docs/operations.md#mail), loaded lazily by
 * mail/send.ts so rendering, MIME and the digest stay out of the cold-start bundle. Unbound (an
 * upstream API, or mail not configured) nothing is sent and rows stay queued; the log says so once
 * per isolate rather than on every write.
 */

export type MailBindings = Pick<ProviderBindings, 'DB' | 'MAIL' | 'MAIL_FROM' | 'MAIL_INBOX' | 'APP_URL' | 'JWT_SECRET'>;

let toldUnbound = false;

/** The SendMail of the MAIL binding, or null (logged once) when there is no binding or sender. */
export const mailSender = (env: MailBindings): SendMail | null => {
  const mail = env.MAIL;
  const from = env.MAIL_FROM?.trim();
  if (!mail || !from) {
    if (!toldUnbound) console.warn('mail: not sent, the MAIL binding or MAIL_FROM is not configured; mail stays queued');
    toldUnbound = true;
    return null;
  }
  const domain = from.slice(from.lastIndexOf('@') + 1) || 'localhost';
  return async (outgoing: OutgoingMail) => {
    const raw = buildMime(outgoing, from, `${crypto.randomUUID()}@${domain}`);
    await mail.send(new EmailMessage(from, outgoing.to, raw));
  };
};

export const renderSettings = (env: MailBindings): RenderSettings => ({ appUrl: env.APP_URL?.trim() || '', secret: env.JWT_SECRET, inbox: env.MAIL_INBOX?.trim() || undefined });

/** Claims, renders and sends what was claimed; the outcomes are recorded by sendClaimed. */
export const sendMails = async (env: MailBindings, send: SendMail, mails: OutgoingMail[], now: number) => {
  if (mails.length === 0) return;
  await sendClaimed(env.DB, await renderClaimed(env.DB, mails, renderSettings(env)), send, now);
};

/** Sends the mail one committed request queued; what fails is retried by the minute trigger. */
export const sendRequestMail = async (env: MailBindings, requestId: string, now = Date.now()) => {
  const send = mailSender(env);
  if (!send) return;
  await sendMails(env, send, await claimRequestMail(env.DB, requestId, now), now);
};

/**
 * The minute trigger's mail (docs/architecture.md#mail): the digests due in this hour, the mails due
 * (first sends the request did not make, and retries), and bodies past 30 days. With nothing due it
 * is three queries: the zones in use, the due range, the old-body range.
 */
export const mailOnSchedule = async (env: MailBindings, now = new Date()) => {
  const appUrl = renderSettings(env).appUrl;
  await queueDigests(env.DB, now, `${appUrl.replace(/\/+$/, '')}/tickets/?id=`);
  const send = mailSender(env);
  if (send) await sendMails(env, send, await claimDueMail(env.DB, now.getTime()), now.getTime());
  await clearOldBodies(env.DB, now);
};
