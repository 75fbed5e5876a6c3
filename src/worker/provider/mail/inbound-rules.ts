/**
 * The checks a received mail passes before it is parsed or stored (docs/api.md#mail). Mail that
 * would loop (an auto-reply, or our own outgoing mail coming back) is dropped quietly; mail that is
 * too large, or carries more attachments than a person would send, is rejected whole so nothing is
 * half stored.
 */
import { ATTACHMENT_MAX_BYTES } from '../../../shared/schemas/attachments';

/** A whole raw message is held to the upload limit (25 MiB), so no mail stores more than one upload could. */
export const MAIL_MAX_BYTES = ATTACHMENT_MAX_BYTES;

/** More attachments than this in one mail is not a person writing; the mail is rejected whole. */
export const MAIL_MAX_ATTACHMENTS = 20;

/** The bare address of a header value (`Ann <Ann@Example.com>` → `ann@example.com`), or null. */
export function bareAddress(value: string | undefined | null): string | null {
  if (!value) return null;
  const angled = /<([^<>\s]+@[^<>\s]+)>/.exec(value);
  const address = (angled?.[1] ?? value).trim().toLowerCase();
  return /^[^\s@<>",;]+@[^\s@<>",;]+$/.test(address) ? address : null;
}

/**
 * Why a mail is dropped without a reply, or null to go on: `Auto-Submitted` other than `no`
 * (RFC 3834: auto-replies and bounces), or sent from the app's own `MAIL_FROM` address.
 */
export function dropReason(autoSubmitted: string | null, from: string, mailFrom: string | undefined): string | null {
  const auto = autoSubmitted?.split(';')[0]?.trim().toLowerCase();
  if (auto && auto !== 'no') return `Auto-Submitted: ${auto}`;
  const own = bareAddress(mailFrom);
  if (own && bareAddress(from) === own) return 'Sent from our own address';
  return null;
}
