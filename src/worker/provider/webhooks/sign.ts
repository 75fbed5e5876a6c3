/**
 * Standard Webhooks signing (docs/api.md#verifying-a-signature): HMAC-SHA256 keyed with the bytes
 * the secret's base64 (after `whsec_`) stands for, over `id.timestamp.body`, sent as `v1,<base64>`.
 */
const base64 = (bytes: ArrayBuffer | Uint8Array) => btoa(String.fromCharCode(...new Uint8Array(bytes)));

/** A new signing secret: `whsec_` and the base64 of 32 random bytes. */
export const newWebhookSecret = () => `whsec_${base64(crypto.getRandomValues(new Uint8Array(32)))}`;

const secretBytes = (secret: string) => Uint8Array.from(atob(secret.replace(/^whsec_/, '')), (char) => char.charCodeAt(0));

export const signWebhook = async (secret: string, id: string, timestamp: number, body: string) => {
  const key = await crypto.subtle.importKey('raw', secretBytes(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return `v1,${base64(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${id}.${timestamp}.${body}`)))}`;
};
