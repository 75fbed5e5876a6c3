import { API_TOKEN_PREFIX } from '../../../shared/schemas/api-tokens';
import { toBase64url } from '../../../shared/base64url';

// 32 random bytes, base64url: 43 characters after the prefix.
const API_TOKEN = /^sat_[A-Za-z0-9_-]{43}$/;

/** A new token: the prefix and 256 random bits. Shown once; only its hash is kept. */
export const newApiToken = () => `${API_TOKEN_PREFIX}${toBase64url(crypto.getRandomValues(new Uint8Array(32)))}`;

/** Whether a bearer value is written as an API token (then it is never read as a session JWT). */
export const isApiToken = (value: string) => value.startsWith(API_TOKEN_PREFIX);

/** Whether it has exactly the shape newApiToken makes; anything else is refused without a lookup. */
export const isWellFormedApiToken = (value: string) => API_TOKEN.test(value);

/**
 * SHA-256 of the token, lowercase hex: what is stored and looked up. A fast hash is enough: the
 * token is 256 random bits, not a password someone chose.
 */
export const hashApiToken = async (token: string) => {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
};
