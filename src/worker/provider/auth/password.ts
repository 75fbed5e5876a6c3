// PBKDF2-SHA256 through WebCrypto. 100,000 iterations is the most Workers allow in production.
const ITERATIONS = 100_000;
const SALT_BYTES = 16;
const HASH_BITS = 256;
const SCHEME = 'pbkdf2-sha256';

const encoder = new TextEncoder();
const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));

const derive = async (password: string, salt: BufferSource, iterations: number) => {
  const key = await crypto.subtle.importKey('raw', encoder.encode(password), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, key, HASH_BITS);
  return new Uint8Array(bits);
};

const sameBytes = (a: Uint8Array, b: Uint8Array) => {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
};

/** `pbkdf2-sha256$<iterations>$<salt>$<hash>`, salt and hash in base64. */
export const hashPassword = async (password: string) => {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, ITERATIONS);
  return `${SCHEME}$${ITERATIONS}$${toBase64(salt)}$${toBase64(hash)}`;
};

export const verifyPassword = async (password: string, stored: string) => {
  const [scheme, iterations, salt, hash] = stored.split('$');
  if (scheme !== SCHEME || !iterations || !salt || !hash) return false;
  // Production's WebCrypto throws above 100,000 (a 500 at sign-in) where local workerd would
  // work it out: a hash no deployed Worker can check matches no password, here as there.
  const rounds = Number(iterations);
  if (!Number.isSafeInteger(rounds) || rounds < 1 || rounds > ITERATIONS) return false;
  const actual = await derive(password, fromBase64(salt), rounds);
  return sameBytes(actual, fromBase64(hash));
};

// Checked against when the email is unknown, so a wrong email costs the same time as a wrong
// password and response timing does not reveal which accounts exist.
export const DUMMY_HASH = `${SCHEME}$${ITERATIONS}$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=`;
