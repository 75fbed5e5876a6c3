/**
 * A ticket's reply address (docs/api.md#mail): `ticket+<id>.<sig>@<the inbox's domain>`, where `sig` is
 * the first 16 hex characters of HMAC-SHA256(JWT_SECRET, id). The signature lets the inbound handler
 * trust the ticket id without a lookup table, and refuse an address someone made up.
 */

const SIG_LENGTH = 16;

async function signature(secret: string, ticketId: number): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(String(ticketId))));
  return Array.from(mac.subarray(0, SIG_LENGTH / 2), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The domain part of `MAIL_INBOX` (`support@example.com` → `example.com`), or null when it has none. */
export function inboxDomain(inbox: string | undefined): string | null {
  const at = inbox?.lastIndexOf('@') ?? -1;
  return inbox && at > 0 && at < inbox.length - 1 ? inbox.slice(at + 1).toLowerCase() : null;
}

/** The reply address of a ticket, or null when no inbox is configured. */
export async function replyAddress(secret: string, inbox: string | undefined, ticketId: number): Promise<string | null> {
  const domain = inboxDomain(inbox);
  return domain ? `ticket+${ticketId}.${await signature(secret, ticketId)}@${domain}` : null;
}

export type ReplyTarget = { kind: 'none' } | { kind: 'forged' } | { kind: 'ticket'; ticketId: number };

/**
 * What an address names: not a reply address at all (`none`), one whose signature does not match
 * (`forged`), or a ticket. Compared in constant time so the signature cannot be guessed byte by byte.
 */
export async function readReplyAddress(secret: string, address: string): Promise<ReplyTarget> {
  const match = /^ticket\+(\d{1,15})\.([0-9a-f]+)@/i.exec(address.trim());
  if (!match) return { kind: 'none' };
  const ticketId = Number(match[1]);
  const expected = await signature(secret, ticketId);
  const given = match[2].toLowerCase();
  let differ = given.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) differ |= expected.charCodeAt(i) ^ (given.charCodeAt(i) || 0);
  return differ === 0 && ticketId > 0 ? { kind: 'ticket', ticketId } : { kind: 'forged' };
}
