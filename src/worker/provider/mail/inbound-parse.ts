/**
 * A raw received mail parsed into what the inbound handler needs (docs/api.md#mail). postal-mime is
 * loaded with a dynamic import here so it stays out of the Worker's cold-start bundle
 * (docs/decisions.md#performance-budgets). The subject loses line breaks and control characters,
 * so a header-injection attempt becomes a harmless title.
 */
import { mailBodyText } from './inbound-text';

export type ParsedAttachment = { filename: string; mimeType: string; content: Uint8Array };

export type ParsedMail = {
  fromAddress: string | null;
  fromName: string;
  subject: string;
  autoSubmitted: string | null;
  body: string;
  attachments: ParsedAttachment[];
};

function contentBytes(content: ArrayBuffer | Uint8Array | string): Uint8Array {
  if (typeof content === 'string') return new TextEncoder().encode(content);
  return content instanceof Uint8Array ? content : new Uint8Array(content);
}

/** One line of plain text: control characters (CR/LF included) become spaces, runs of space one. */
function oneLine(value: string | undefined): string {
  // eslint-disable-next-line no-control-regex
  return (value ?? '').replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim();
}

/** Parse a raw message; throws when it is no MIME message at all (no From or no body structure). */
export async function parseMail(raw: ArrayBuffer | Uint8Array): Promise<ParsedMail> {
  const { default: PostalMime } = await import('postal-mime');
  const email = await PostalMime.parse(raw);
  const from = email.from && 'address' in email.from ? email.from : undefined;
  const autoSubmitted = email.headers.find((header) => header.key === 'auto-submitted')?.value ?? null;
  return {
    fromAddress: from?.address ? from.address.toLowerCase() : null,
    fromName: oneLine(from?.name),
    subject: oneLine(email.subject),
    autoSubmitted,
    body: mailBodyText(email.text, email.html),
    attachments: email.attachments
      .filter((attachment) => attachment.disposition === 'attachment' || !attachment.related)
      .map((attachment) => ({
        filename: oneLine(attachment.filename ?? '') || 'attachment',
        mimeType: attachment.mimeType,
        content: contentBytes(attachment.content),
      })),
  };
}
