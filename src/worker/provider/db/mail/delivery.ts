/**
 * Sending what the outbox holds (docs/architecture.md#mail). Rows are claimed inside the UPDATE
 * that leases them, so two triggers running at once never send one mail twice; a failed send is
 * tried again after 1 min, 5, 30, 2 h and 12 h, then the mail is marked failed.
 */

/** Minutes to wait after the 1st, 2nd, … failed attempt; after the last one the mail has failed. */
export const RETRY_MINUTES = [1, 5, 30, 120, 720] as const;
/** How long a claimed row stays out of other triggers' reach while it is being sent. */
const LEASE_MS = 5 * 60_000;

export interface OutgoingMail {
  id: number;
  to: string;
  subject: string;
  reply_to: string | null;
  text: string | null;
  html: string | null;
  headers: string;
  attempts: number;
  /** What the row is about, as claimed: the renderer fills a notification's body from them. */
  kind?: string;
  ticket_id?: number | null;
  notification_id?: number | null;
}

/** Whatever hands a mail to the network: the MAIL binding in production, a recorder in tests. */
export type SendMail = (mail: OutgoingMail) => Promise<void>;

const iso = (ms: number) => new Date(ms).toISOString();

const CLAIMED = 'id, "to", subject, reply_to, text, html, headers, attempts, kind, ticket_id, notification_id';

/** Claims up to `limit` due mails (queued, next attempt passed) and answers them; one index range. */
export const claimDueMail = async (db: D1Database, now: number, limit = 50) =>
  (
    await db
      .prepare(
        `UPDATE mail_outbox SET next_attempt_at = ?2
         WHERE id IN (SELECT id FROM mail_outbox WHERE status = 'queued' AND next_attempt_at <= ?1 ORDER BY next_attempt_at LIMIT ?3)
         RETURNING ${CLAIMED}`,
      )
      .bind(iso(now), iso(now + LEASE_MS), limit)
      .all<OutgoingMail>()
  ).results;

/** Claims the mails one request queued, right after it commits, under the same lease as claimDueMail. */
export const claimRequestMail = async (db: D1Database, requestId: string, now: number, limit = 50) =>
  (
    await db
      .prepare(
        `UPDATE mail_outbox SET next_attempt_at = ?3
         WHERE id IN (SELECT id FROM mail_outbox WHERE request_id = ?1 AND status = 'queued' AND next_attempt_at <= ?2 LIMIT ?4)
         RETURNING ${CLAIMED}`,
      )
      .bind(requestId, iso(now), iso(now + LEASE_MS), limit)
      .all<OutgoingMail>()
  ).results;

/**
 * Sends each claimed mail and records the outcome: sent, or the next attempt, or failed. A sent
 * mail keeps the body and Reply-To it went with (rendered at claim time for notifications).
 */
export const sendClaimed = async (db: D1Database, mails: OutgoingMail[], send: SendMail, now: number) => {
  const outcomes: D1PreparedStatement[] = [];
  for (const mail of mails) {
    try {
      await send(mail);
      outcomes.push(db.prepare("UPDATE mail_outbox SET status = 'sent', attempts = attempts + 1, sent_at = ?2, last_error = NULL, next_attempt_at = NULL, text = ?3, html = ?4, reply_to = ?5 WHERE id = ?1").bind(mail.id, iso(now), mail.text, mail.html, mail.reply_to));
    } catch (error) {
      const wait = RETRY_MINUTES[mail.attempts];
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      outcomes.push(
        wait === undefined
          ? db.prepare("UPDATE mail_outbox SET status = 'failed', attempts = attempts + 1, last_error = ?2, next_attempt_at = NULL WHERE id = ?1").bind(mail.id, message)
          : db.prepare('UPDATE mail_outbox SET attempts = attempts + 1, last_error = ?2, next_attempt_at = ?3 WHERE id = ?1').bind(mail.id, message, iso(now + wait * 60_000)),
      );
    }
  }
  if (outcomes.length) await db.batch(outcomes);
};

/** One run of the minute trigger's sending: claim what is due, send it, record each outcome. */
export const sendDueMail = async (db: D1Database, send: SendMail, now: number) => sendClaimed(db, await claimDueMail(db, now), send, now);
