import type { Attachment } from '../../../shared/schemas/attachments';

/**
 * A stored file can never act as one of the app's pages: its type is the one sniffed from its
 * bytes, the browser may not guess another (nosniff), the sandbox CSP gives it an opaque origin
 * with no scripts, and anything but an image is a download.
 */
export const FILE_CSP = "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'";

// RFC 6266: a plain ASCII name for old clients, the exact name in filename*.
const dispositionOf = (name: string, inline: boolean) => {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
};

export const contentHeaders = (file: Attachment, inline: boolean) => ({
  'content-type': file.contentType,
  'content-length': String(file.bytes),
  'content-disposition': dispositionOf(file.name, inline),
  'x-content-type-options': 'nosniff',
  'content-security-policy': FILE_CSP,
  'cache-control': 'no-store',
});
