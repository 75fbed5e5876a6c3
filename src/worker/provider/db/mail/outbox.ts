/**
 * The mail outbox (docs/architecture.md#mail): every mail is first a `mail_outbox` row written in
 * the same D1 batch as the change it tells of, so a mail is queued exactly when that change
 * commits, and is sent after the commit (retried by the minute trigger when sending fails).
 */

/** One mail to queue. `text` and `html` are complete bodies; headers are plain values. */
export interface QueuedMail {
  to: string;
  subject: string;
  /** A notification kind, `digest`, or `reply` (a comment sent to a ticket's requester). */
  kind: string;
  ticketId: number | null;
  replyTo: string | null;
  text: string;
  html: string;
  requestId: string | null;
  headers?: Record<string, string>;
}

/**
 * A header value on one line: CR, LF and other control characters become spaces, so a ticket
 * title such as "Hi\r\nBcc: x" can never start a header of its own.
 */
export const headerValue = (value: string) =>
  Array.from(value, (char) => (char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f ? ' ' : char))
    .join('')
    .replace(/ {2,}/g, ' ')
    .trim();

/**
 * The INSERT of one queued mail, for the caller's batch. Every mail says it was sent by a machine
 * (`Auto-Submitted`), so auto-replies stay silent and the inbound side drops it if it loops back.
 */
export const queueMailStatement = (db: D1Database, mail: QueuedMail) => {
  const headers = Object.fromEntries(Object.entries({ 'Auto-Submitted': 'auto-generated', ...mail.headers }).map(([name, value]) => [headerValue(name), headerValue(value)]));
  return db
    .prepare(
      `INSERT INTO mail_outbox ("to", subject, kind, ticket_id, reply_to, text, html, headers, request_id, next_attempt_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`,
    )
    .bind(headerValue(mail.to), headerValue(mail.subject), mail.kind, mail.ticketId, mail.replyTo && headerValue(mail.replyTo), mail.text, mail.html, JSON.stringify(headers), mail.requestId);
};
