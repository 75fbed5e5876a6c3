import { decode, verify } from 'hono/jwt';
import type { HonoJsonWebKey } from 'hono/utils/jwt/jws';

/**
 * Reads the identity Cloudflare Access puts on each request it lets through
 * (docs/operations.md#cloudflare-access): an RS256 JWT signed with one of the team's keys. The
 * signature, issuer and audience are checked by `hono/jwt` (already in the Worker for the app's own
 * tokens), not by crypto of our own; this file decides which key to hand it and when to fetch the
 * keys again, and checks the times itself because hono's checks allow no leeway.
 */

/** Where the team's keys are and what its tokens must say. */
export interface AccessSettings {
  /** `ACCESS_TEAM_DOMAIN`, e.g. `https://acme.cloudflareaccess.com`: the tokens' `iss`. */
  teamDomain: string;
  /** `ACCESS_AUD`: the application's audience tag, one of the tokens' `aud`. */
  audience: string;
}

/** How the keys are fetched; tests hand in their own. */
export type CertsFetcher = (url: string) => Promise<Response>;

/** The keys could not be fetched, so no identity can be checked (as opposed to a bad token). */
export class AccessKeysUnavailable extends Error {}

// Access signs with RS256 only. Anything else (`none`, or HS256 with the public key as the secret)
// is refused before a key is looked up.
const ALGORITHM = 'RS256';
// Access and the Worker's clocks may differ a little.
const LEEWAY_SECONDS = 60;
// Keys are fetched again after this, so a key Access has dropped stops being trusted.
const KEYS_MAX_AGE_MS = 60 * 60 * 1000;
// A token naming a key not in the set fetches the set again (Access rotates its keys), once per
// key id, and not more often than this, so a flood of made-up key ids cannot hammer the endpoint.
const REFETCH_GAP_MS = 30 * 1000;
// After a failed fetch, requests wait this long before one tries again.
const RETRY_GAP_MS = 5 * 1000;
// How many unknown key ids are remembered; the oldest is forgotten first.
const REMEMBERED_UNKNOWN = 256;

/** The team's public keys, as `<team>/cdn-cgi/access/certs` lists them. */
type KeySet = HonoJsonWebKey[];

/** One team's keys in this isolate. */
interface Team {
  /** The set last fetched, or the fetch under way; null after a failed fetch. */
  keys: Promise<KeySet> | null;
  /** When the last fetch started, in ms. */
  fetchedAt: number;
  /** Key ids that were looked for by fetching the set again and were not in it. */
  unknown: Set<string>;
}

const teams = new Map<string, Team>();

/** The team domain as an origin: `acme.cloudflareaccess.com` and a trailing slash are accepted. */
export const teamOrigin = (teamDomain: string) => {
  const trimmed = teamDomain.trim().replace(/\/+$/, '');
  return /^https?:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
};

const fetchKeys = async (origin: string, fetcher: CertsFetcher): Promise<KeySet> => {
  let response: Response;
  try {
    response = await fetcher(`${origin}/cdn-cgi/access/certs`);
  } catch (error) {
    throw new AccessKeysUnavailable(`Cloudflare Access keys could not be fetched: ${String(error)}`);
  }
  const body: unknown = response.ok ? await response.json().catch(() => null) : null;
  const keys: unknown = (body as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new AccessKeysUnavailable(`Cloudflare Access keys could not be read (HTTP ${response.status})`);
  // Only RSA keys can check an RS256 signature; anything else in the set is ignored.
  return keys.filter((key: unknown): key is HonoJsonWebKey => typeof key === 'object' && key !== null && (key as HonoJsonWebKey).kty === 'RSA');
};

/** Starts a fetch of the team's keys; it is the team's set from now on, unless it fails. */
const refresh = (team: Team, origin: string, fetcher: CertsFetcher) => {
  team.fetchedAt = Date.now();
  const loading = fetchKeys(origin, fetcher);
  team.keys = loading;
  loading.catch(() => {
    if (team.keys === loading) team.keys = null;
  });
  return loading;
};

const hasKey = (keys: KeySet, kid: string) => keys.some((key) => key.kid === kid);

const remember = (unknown: Set<string>, kid: string) => {
  unknown.add(kid);
  const oldest = unknown.values().next().value;
  if (unknown.size > REMEMBERED_UNKNOWN && oldest !== undefined) unknown.delete(oldest);
};

/**
 * The keys to check a token signed with key `kid`: the cached set, fetched on first use and once
 * it is older than KEYS_MAX_AGE_MS, and again when it lacks `kid` (see REFETCH_GAP_MS). Each step
 * from reading the set to starting a fetch runs without an await between, so requests arriving
 * together share one fetch.
 */
const keysFor = async (origin: string, kid: string, fetcher: CertsFetcher) => {
  let team = teams.get(origin);
  if (!team) teams.set(origin, (team = { keys: null, fetchedAt: 0, unknown: new Set() }));
  const age = Date.now() - team.fetchedAt;
  if (!team.keys && age < RETRY_GAP_MS) throw new AccessKeysUnavailable('Cloudflare Access keys could not be fetched a moment ago');
  const current = !team.keys || age >= KEYS_MAX_AGE_MS ? refresh(team, origin, fetcher) : team.keys;
  const keys = await current;
  if (hasKey(keys, kid) || team.unknown.has(kid)) return keys;
  // Another request has started fetching the set again meanwhile: its answer is the newer one.
  if (team.keys && team.keys !== current) return team.keys;
  if (Date.now() - team.fetchedAt < REFETCH_GAP_MS) return keys;
  const fresh = await refresh(team, origin, fetcher);
  if (!hasKey(fresh, kid)) remember(team.unknown, kid);
  return fresh;
};

/** Forgets every cached key set; for tests that start from an empty isolate. */
export const forgetAccessKeys = () => teams.clear();

/**
 * The email of a valid Access token, or null when the token is not one: malformed, not RS256,
 * signed by a key not in the team's set, from another issuer, for another application, without an
 * expiry, expired or not yet valid (beyond 60 s either way), or without an email (a service
 * token). Throws AccessKeysUnavailable when the keys cannot be fetched.
 */
export const verifyAccessToken = async (token: string, settings: AccessSettings, fetcher: CertsFetcher = (url) => fetch(url)): Promise<string | null> => {
  let kid: unknown;
  try {
    const { header } = decode(token);
    if (header.alg !== ALGORITHM) return null;
    kid = (header as { kid?: unknown }).kid;
  } catch {
    return null;
  }
  if (typeof kid !== 'string' || !kid) return null;
  const origin = teamOrigin(settings.teamDomain);
  const key = (await keysFor(origin, kid, fetcher)).find((candidate) => candidate.kid === kid);
  if (!key) return null;
  let payload: Record<string, unknown>;
  try {
    // The algorithm is fixed here, never taken from the token: a token saying HS256 fails above.
    payload = await verify(token, key, { alg: ALGORITHM, iss: origin, aud: settings.audience, exp: false, nbf: false, iat: false });
  } catch {
    return null;
  }
  const now = Math.floor(Date.now() / 1000);
  const { exp, nbf, email } = payload;
  if (typeof exp !== 'number' || !Number.isFinite(exp) || exp + LEEWAY_SECONDS <= now) return null;
  if (nbf !== undefined && (typeof nbf !== 'number' || !Number.isFinite(nbf) || nbf - LEEWAY_SECONDS > now)) return null;
  return typeof email === 'string' && email.includes('@') ? email : null;
};
