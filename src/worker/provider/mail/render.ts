import type { OutgoingMail } from '../db/mail/delivery';
import { fullName } from '../db/sql';
import { replyAddress } from './reply-address';

/**
 * The body and Reply-To of a notification mail (docs/architecture.md#mail), rendered when the row
 * is claimed for sending: they need APP_URL and the signing secret, which the batch that queued it
 * does not have. A mail says who did what to which ticket and links to it; nothing else (no comment
 * text), so it holds nothing the reader's role may not read.
 */

export interface RenderSettings {
  appUrl: string;
  secret: string;
  inbox: string | undefined;
}

const WHAT: Record<string, (actor: string) => string> = {
  assigned: (actor) => `${actor} assigned you a ticket`,
  mentioned: (actor) => `${actor} mentioned you on a ticket`,
  commented: (actor) => `${actor} commented on a ticket you watch`,
  status: (actor) => `${actor} changed the status of a ticket you watch`,
  sla_warning: () => 'A service-level target is due soon',
  sla_breached: () => 'A service-level target was missed',
};

/** Text safe inside HTML element content and attribute values. */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);

/** A ticket's page in the app. */
export const ticketLink = (appUrl: string, ticketId: number) => `${appUrl.replace(/\/+$/, '')}/tickets/?id=${ticketId}`;

interface NoticeRow {
  id: number;
  kind: string;
  title: string;
  entity_id: number;
  actor: string | null;
}

export const renderNotice = (notice: NoticeRow, appUrl: string) => {
  const what = (WHAT[notice.kind] ?? (() => 'A ticket changed'))(notice.actor ?? 'Someone');
  const link = ticketLink(appUrl, notice.entity_id);
  const text = `${what}:\n\n#${notice.entity_id} ${notice.title}\n\nOpen it: ${link}\n`;
  const html = `<p>${escapeHtml(what)}:</p>\n<p><a href="${escapeHtml(link)}">#${notice.entity_id} ${escapeHtml(notice.title)}</a></p>\n`;
  return { text, html };
};

/**
 * Fills in the body of claimed notification mails that have none yet (one query for all of them)
 * and the ticket's reply address; digests and replies come with theirs.
 */
export const renderClaimed = async (db: D1Database, mails: OutgoingMail[], settings: RenderSettings) => {
  const pending = mails.filter((mail) => typeof mail.notification_id === 'number' && mail.text === null);
  if (pending.length === 0) return mails;
  const { results } = await db
    .prepare(
      `SELECT n.id, n.kind, n.title, n.entity_id, ${fullName('a')} AS actor FROM notifications n LEFT JOIN users a ON a.id = n.actor_id
       WHERE n.id IN (SELECT value FROM json_each(?1))`,
    )
    .bind(JSON.stringify(pending.map((mail) => mail.notification_id)))
    .all<NoticeRow>();
  const notices = new Map(results.map((row) => [row.id, row]));
  for (const mail of pending) {
    const notice = notices.get(mail.notification_id ?? 0);
    if (!notice) continue;
    Object.assign(mail, renderNotice(notice, settings.appUrl));
    if (typeof mail.ticket_id === 'number' && !mail.reply_to) mail.reply_to = await replyAddress(settings.secret, settings.inbox, mail.ticket_id);
  }
  return mails;
};
