/**
 * A file's type from its first bytes (its magic number), never from its name or the type the
 * uploader's browser claimed: a page named `cat.png` stays text. What is not a known binary
 * format is plain text when its start is UTF-8 without control characters, else opaque bytes.
 */

/** How many leading bytes the decision reads. */
export const SNIFF_BYTES = 4096;

const ascii = (text: string) => Array.from(text, (ch) => ch.charCodeAt(0));

interface Signature {
  type: string;
  at: number;
  bytes: number[];
  /** A second mark the format also needs (WebP's `WEBP` after `RIFF`). */
  also?: { at: number; bytes: number[] };
}

const SIGNATURES: Signature[] = [
  { type: 'image/png', at: 0, bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/jpeg', at: 0, bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/gif', at: 0, bytes: ascii('GIF87a') },
  { type: 'image/gif', at: 0, bytes: ascii('GIF89a') },
  { type: 'image/webp', at: 0, bytes: ascii('RIFF'), also: { at: 8, bytes: ascii('WEBP') } },
  { type: 'application/pdf', at: 0, bytes: ascii('%PDF-') },
  { type: 'application/zip', at: 0, bytes: [0x50, 0x4b, 0x03, 0x04] },
  { type: 'application/gzip', at: 0, bytes: [0x1f, 0x8b] },
];

export const TEXT_TYPE = 'text/plain; charset=utf-8';
export const OPAQUE_TYPE = 'application/octet-stream';

const matches = (head: Uint8Array, at: number, bytes: number[]) => bytes.every((byte, i) => head[at + i] === byte);

// Tab, line feed, form feed and carriage return are text; other C0 controls and DEL are not.
const isControl = (byte: number) => (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d) || byte === 0x7f;

const isText = (head: Uint8Array) => {
  if (head.some(isControl)) return false;
  try {
    // `stream: true` lets a character cut at the end of the sample pass.
    new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(head, { stream: true });
    return true;
  } catch {
    return false;
  }
};

export const sniffType = (head: Uint8Array) => {
  const known = SIGNATURES.find((s) => matches(head, s.at, s.bytes) && (!s.also || matches(head, s.also.at, s.also.bytes)));
  if (known) return known.type;
  return isText(head.subarray(0, SNIFF_BYTES)) ? TEXT_TYPE : OPAQUE_TYPE;
};
