import type { NewCommentPayload } from '../../../../shared/schemas/tickets';
import { mentionParts } from '../../../../shared/mentions';
import { Invalid } from '../../errors/domain';
import { escapeHtml } from '../../mail/render';
import { replyAddress } from '../../mail/reply-address';
import { fullName } from '../sql';
import { insertComment, type Author } from '../ticket-activity';
import { queueMailStatement } from './outbox';

/**
 * Comments and the ticket's requester (docs/architecture.md#mail): a comment is a note for the team
 * unless its author sends it to the requester ("Reply by mail"); then the same batch that stores it
 * queues its mail, from MAIL_FROM with the ticket's reply address, so the requester's answer comes
 * back as a comment. The mail carries the comment's text and its author's name, nothing else of the
 * ticket, and no link into the app, which the requester cannot open.
 */

interface ReplySettings {
  secret: string;
  inbox: string | undefined;
}

export const NO_REQUESTER = 'This ticket has no requester to send to';

/** The comment's text as an outsider reads it: mentions as plain names. */
const plain = (body: string) => mentionParts(body).map((part) => ('text' in part ? part.text : `@${part.name}`)).join('');

const replyBody = (body: string, author: string, ticketId: number) => {
  const [said, footer] = [plain(body), `Reply to this mail to answer; keep [#${ticketId}] in the subject.`];
  const text = `${said}\n\n${author}\n\n${footer}\n`;
  const html = `<p style="white-space: pre-wrap">${escapeHtml(said)}</p>\n<p>${escapeHtml(author)}</p>\n<p style="color: #666">${escapeHtml(footer)}</p>\n`;
  return { text, html };
};

export const addComment = async (db: D1Database, settings: ReplySettings, ticketId: number, author: Author, { sendToRequester, ...comment }: NewCommentPayload) => {
  if (!sendToRequester) return insertComment(db, ticketId, author, comment);
  // The requester is set when mail opens the ticket and never changes, so reading it first races nothing.
  const ticket = await db
    .prepare(`SELECT t.title, t.requester_email, (SELECT ${fullName('u')} FROM users u WHERE u.id = ?2) AS author FROM tickets t WHERE t.id = ?1`)
    .bind(ticketId, author.actorId)
    .first<{ title: string; requester_email: string | null; author: string | null }>();
  if (!ticket?.requester_email) throw new Invalid(NO_REQUESTER, { sendToRequester: [NO_REQUESTER] });
  const mail = queueMailStatement(db, {
    to: ticket.requester_email,
    subject: `[#${ticketId}] ${ticket.title}`,
    kind: 'reply',
    ticketId,
    replyTo: await replyAddress(settings.secret, settings.inbox, ticketId),
    ...replyBody(comment.body, ticket.author ?? '', ticketId),
    requestId: author.requestId,
  });
  return insertComment(db, ticketId, author, comment, [mail], true);
};
