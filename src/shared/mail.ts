/**
 * Mail shapes of the provider API (docs/api.md#mail): the notification preferences a person sets and
 * the mail log admins read.
 */

/** How a kind of notification reaches its owner by mail: at once, in the 07:00 digest, or not at all. */
export const MAIL_DELIVERIES = ['instant', 'daily', 'off'] as const;
export type MailDelivery = (typeof MAIL_DELIVERIES)[number];

/** The notification kinds a person chooses a delivery for. */
export const MAILED_KINDS = ['assigned', 'mentioned', 'commented', 'status'] as const;
export type MailedKind = (typeof MAILED_KINDS)[number];

/** `GET`/`PUT users/me/notification-settings`. */
export type NotificationSettings = Record<MailedKind, MailDelivery>;

export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  assigned: 'instant',
  mentioned: 'instant',
  commented: 'daily',
  status: 'daily',
};

export const MAIL_STATUSES = ['queued', 'sent', 'failed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/** One row of `GET settings/mail` (admin). */
export interface MailLogEntry {
  id: number;
  at: string;
  to: string;
  subject: string;
  /** A notification kind, `digest`, or `reply` for a comment sent to a ticket's requester. */
  kind: string;
  ticketId: number | null;
  replyTo: string | null;
  status: MailStatus;
  attempts: number;
  lastError: string | null;
  sentAt: string | null;
}

/** `GET settings/mail/{id}`: the row and its plain-text body (kept 30 days; null after). */
export interface MailLogDetail extends MailLogEntry {
  text: string | null;
}

/** Whoever outside the team a ticket came from by mail. */
export interface Requester {
  email: string;
  name: string | null;
}
