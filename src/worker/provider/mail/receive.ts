import { ATTACHMENTS_PER_TICKET } from '../../../shared/schemas/attachments';
import { normalizeText } from '../../../shared/schemas/text';
import { insertAttachment } from '../db/attachments';
import { activeSender, mailInEntry, replyRefusal } from '../db/mail/inbound';
import { companyOfAddress, insertRequesterComment, requesterOf } from '../db/mail/requesters';
import { insertComment } from '../db/ticket-activity';
import { insertTicket } from '../db/tickets';
import type { ProviderBindings } from '../env';
import { storeStream } from '../files/store';
import { sniffType } from '../files/sniff';
import { afterCommit } from '../live/publish';
import { parseMail, type ParsedAttachment, type ParsedMail } from './inbound-parse';
import { MAIL_MAX_ATTACHMENTS, MAIL_MAX_BYTES, bareAddress, dropReason } from './inbound-rules';
import { readReplyAddress } from './reply-address';
import { mailLog as log, refuseMail } from './refuse';

/**
 * The Worker's email() handler (docs/architecture.md#mail): mail to MAIL_INBOX from an active
 * person becomes a ticket they reported, and from an address at a company's mail domain a ticket
 * for that company with the sender as its requester; mail to a ticket's signed reply address from
 * an active person, or from the ticket's requester, becomes a comment. Everything else is refused
 * with a reason the sending server passes back (setReject), or, for auto-replies and our own mail
 * coming back, dropped quietly so no loop starts. Each outcome is one log line. The checks come
 * before any write, so a refused mail leaves nothing behind.
 */

export type ReceiveBindings = Pick<ProviderBindings, 'DB' | 'FILES' | 'JWT_SECRET' | 'MAIL_INBOX' | 'MAIL_FROM' | 'MAIL' | 'APP_URL' | 'LIVE'>;

/** The longest title a ticket takes; a longer subject is cut, an empty one named for its sender. */
const TITLE_MAX = 200;
const BODY_MAX = 5000;

/** Text as the API would take it: normalised, within the field's length. */
const clip = (text: string, max: number) => Array.from(normalizeText(text)).slice(0, max).join('');

const titleOf = (mail: ParsedMail, from: string) => clip(mail.subject, TITLE_MAX) || `Mail from ${from}`;

/** The mail's text as the ticket or comment holds it; a mail with files only still says so. */
const bodyOf = (mail: ParsedMail) => clip(mail.body, BODY_MAX) || (mail.attachments.length ? '(files attached by mail)' : '');

/** Each attachment through the uploads' own store and INSERT (type sniffed, SHA-256, limit checked in the write). */
const attach = async (env: ReceiveBindings, by: { actorId: number | null; requestId: string }, ticketId: number, commentId: number | null, files: ParsedAttachment[]) => {
  for (const file of files) {
    const key = `attachments/${ticketId}/${crypto.randomUUID()}`;
    const stored = await storeStream(env.FILES, key, (async function* () { yield file.content; })(), MAIL_MAX_BYTES);
    const name = clip(file.filename.split(/[/\\]/).pop() ?? '', 255) || 'attachment';
    const row = await insertAttachment(env.DB, by, { ticketId, commentId, key, name, bytes: stored.bytes, contentType: sniffType(stored.head), sha256: stored.sha256 });
    if (!row) {
      await env.FILES.delete(key);
      console.warn(`mail: ticket ${ticketId} took no more files; ${name} was not kept`);
    }
  }
};

export const receiveMail = async (message: ForwardableEmailMessage, env: ReceiveBindings, ctx: Pick<ExecutionContext, 'waitUntil'>) => {
  if (message.rawSize > MAIL_MAX_BYTES) return refuseMail(message, 'Message larger than 25 MiB');
  const from = bareAddress(message.from);
  const to = bareAddress(message.to);
  if (!from || !to) return refuseMail(message, 'Unreadable address');
  const dropped = dropReason(message.headers.get('auto-submitted'), from, env.MAIL_FROM);
  if (dropped) return log('dropped', message, dropped);

  let mail: ParsedMail;
  try {
    mail = await parseMail(await new Response(message.raw).arrayBuffer());
  } catch (error) {
    return refuseMail(message, `Malformed message: ${error instanceof Error ? error.message.slice(0, 100) : 'unreadable'}`);
  }
  const droppedAfterParse = dropReason(mail.autoSubmitted, from, env.MAIL_FROM);
  if (droppedAfterParse) return log('dropped', message, droppedAfterParse);
  if (mail.attachments.length > MAIL_MAX_ATTACHMENTS) return refuseMail(message, `More than ${MAIL_MAX_ATTACHMENTS} attachments`);
  const body = bodyOf(mail);
  if (!body) return refuseMail(message, 'Empty message');

  const target = await readReplyAddress(env.JWT_SECRET, to);
  if (target.kind === 'forged') return refuseMail(message, 'Unknown reply address');
  const inbox = bareAddress(env.MAIL_INBOX);
  if (target.kind === 'none' && to !== inbox) return refuseMail(message, 'Unknown address');
  const sender = await activeSender(env.DB, from);
  // Not one of the team: a ticket's requester answering it, or someone at a company's domain writing in.
  const company = sender || target.kind === 'ticket' ? null : await companyOfAddress(env.DB, from);
  const requesterAnswers = !sender && target.kind === 'ticket' && (await requesterOf(env.DB, target.ticketId)) === from;
  if (!sender && !company && !requesterAnswers) return refuseMail(message, 'Unknown sender');

  const requestId = `mail-${crypto.randomUUID()}`;
  const actorId = sender?.id ?? null;
  const by = { actorId, requestId };
  const facts = { from, to, subject: mail.subject, attachments: mail.attachments.length };
  const entry = mailInEntry(env.DB, actorId, requestId, facts);
  if (target.kind === 'ticket') {
    const refusal = await replyRefusal(env.DB, target.ticketId, mail.attachments.length, ATTACHMENTS_PER_TICKET);
    if (refusal) return refuseMail(message, refusal);
    const comment = sender
      ? await insertComment(env.DB, target.ticketId, { actorId: sender.id, requestId }, { body }, [entry])
      : await insertRequesterComment(env.DB, target.ticketId, from, body, requestId, [entry]);
    await attach(env, by, target.ticketId, comment.id, mail.attachments);
    log('comment', message, `ticket ${target.ticketId}, comment ${comment.id}${sender ? '' : ' (requester)'}`);
  } else {
    const ticket = await insertTicket(
      env.DB,
      { title: titleOf(mail, from), description: body, priority: 'normal', companyId: company?.id },
      by,
      [entry],
      sender ? undefined : { email: from, name: clip(mail.fromAddress === from ? mail.fromName : '', 100) },
    );
    await attach(env, by, ticket.id, null, mail.attachments);
    log('ticket', message, `ticket ${ticket.id}${company ? ` for company ${company.id} (requester)` : ''}`);
  }
  afterCommit(env, (work) => ctx.waitUntil(work), actorId, requestId);
};
