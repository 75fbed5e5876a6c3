/**
 * Base64url without padding, the encoding WebAuthn's JSON forms use for every binary value
 * (challenges, credential ids, signatures). Small on purpose: the sign-in page and the Worker
 * both use it, and the sign-in page's script has a size budget (docs/decisions.md#performance-budgets).
 */
export const toBase64url = (bytes: Uint8Array): string => {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** The bytes of a base64url text (padding allowed); throws on anything else. */
export const fromBase64url = (text: string): Uint8Array<ArrayBuffer> => {
  const unpadded = text.replace(/=+$/, '');
  if (!BASE64URL.test(unpadded) || unpadded.length % 4 === 1) throw new TypeError('Not base64url');
  const binary = atob(unpadded.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
};

/** Whether `text` is base64url that decodes (the shared schemas check bodies with it). */
export const isBase64url = (text: string) => {
  try {
    fromBase64url(text);
    return true;
  } catch {
    return false;
  }
};
