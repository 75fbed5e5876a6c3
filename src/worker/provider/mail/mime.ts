import type { OutgoingMail } from '../db/mail/delivery';
import { headerValue } from '../db/mail/outbox';

/** UTF-8 text as base64, for RFC 2047 words and base64 bodies. */
const base64 = (text: string) => {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
};

/** Base64 wrapped at 76 characters, as RFC 2045 asks of a body. */
const wrapped = (text: string) => base64(text).replace(/.{76}/g, '$&\r\n');

/** A header value as itself when plain ASCII, else one RFC 2047 encoded word per 30 characters. */
export const encodedWord = (value: string) => {
  const clean = headerValue(value);
  if (/^[\x20-\x7e]*$/.test(clean)) return clean;
  const chunks = Array.from(clean).reduce<string[]>((all, char, index) => (index % 30 ? ((all[all.length - 1] += char), all) : [...all, char]), []);
  return chunks.map((chunk) => `=?UTF-8?B?${base64(chunk)}?=`).join('\r\n ');
};

/**
 * The raw message the MAIL binding sends: plain text and HTML as multipart/alternative, every
 * header value on one line (headerValue) so nothing a person typed can add a header.
 */
export const buildMime = (mail: OutgoingMail, from: string, messageId: string) => {
  const boundary = `=_${crypto.randomUUID()}`;
  const extra = Object.entries(JSON.parse(mail.headers) as Record<string, string>).map(([name, value]) => `${headerValue(name)}: ${encodedWord(value)}`);
  const headers = [
    `From: ${headerValue(from)}`,
    `To: ${headerValue(mail.to)}`,
    ...(mail.reply_to ? [`Reply-To: ${headerValue(mail.reply_to)}`] : []),
    `Subject: ${encodedWord(mail.subject)}`,
    `Message-ID: <${headerValue(messageId)}>`,
    `Date: ${new Date().toUTCString()}`,
    'MIME-Version: 1.0',
    ...extra,
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
  ];
  const part = (type: string, body: string) => [`--${boundary}`, `Content-Type: ${type}; charset=UTF-8`, 'Content-Transfer-Encoding: base64', '', wrapped(body)].join('\r\n');
  return [...headers, '', part('text/plain', mail.text ?? ''), part('text/html', mail.html ?? ''), `--${boundary}--`, ''].join('\r\n');
};
