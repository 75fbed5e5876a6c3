import type { Env } from './env';

// An IPv4 or IPv6 address as Cloudflare writes it; anything else is not an address.
const ADDRESS = /^[0-9A-Fa-f:.]{2,45}$/;

/**
 * The address the request came from, or null when there is none the Worker can trust.
 *
 * On Cloudflare the edge sets CF-Connecting-IP on every request and overwrites one the client
 * sent, so it is the connecting address (TRUST_CF_CONNECTING_IP = "true" in wrangler.toml).
 * Locally, Miniflare sets it from the socket only when the request has none, and passes a
 * client's own value through, so local runs set TRUST_CF_CONNECTING_IP = "false" and have no
 * address; the sign-in limiter then counts per account instead (src/worker/provider/db/login-attempts.ts).
 */
export const clientAddress = (env: Pick<Env, 'TRUST_CF_CONNECTING_IP'>, request: Request) => {
  if (env.TRUST_CF_CONNECTING_IP !== 'true') return null;
  const address = request.headers.get('cf-connecting-ip')?.trim() ?? '';
  return ADDRESS.test(address) ? address : null;
};
