/**
 * Where a webhook may be sent (docs/api.md#webhooks): never to the provider's own network. A
 * host written as an IP address in any form URL parsing accepts (decimal, hex, octal, IPv4 in
 * IPv6) is normalised by `new URL` first; a host name is resolved over DNS-over-HTTPS and refused
 * when any answer is private, link-local, loopback, unique-local or unspecified. With
 * WEBHOOK_ALLOW_LOOPBACK only loopback (and plain http) is let through as well, for local runs.
 */

export type Resolve = (host: string) => Promise<string[]>;

const DOH = 'https://cloudflare-dns.com/dns-query';

interface DohAnswer {
  Answer?: { type: number; data: string }[];
}

/** A and AAAA answers for `host` from Cloudflare's DNS-over-HTTPS JSON API. */
export const resolveOverHttps =
  (fetcher: typeof fetch = fetch): Resolve =>
  async (host) => {
    const lookups = ['A', 'AAAA'].map(async (type) => {
      const response = await fetcher(`${DOH}?name=${encodeURIComponent(host)}&type=${type}`, { headers: { accept: 'application/dns-json' } });
      if (!response.ok) throw new Error(`DNS lookup failed (${response.status})`);
      const answer: DohAnswer = await response.json();
      return (answer.Answer ?? []).filter((record) => record.type === 1 || record.type === 28).map((record) => record.data);
    });
    return (await Promise.all(lookups)).flat();
  };

type Kind = 'public' | 'loopback' | 'private';

const ipv4Kind = (address: string): Kind | null => {
  const parts = address.split('.');
  if (parts.length !== 4 || parts.some((part) => !/^\d{1,3}$/.test(part) || Number(part) > 255)) return null;
  const [a = 0, b = 0] = parts.map(Number);
  if (a === 127) return 'loopback';
  if (a === 0 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254)) return 'private';
  // Shared address space (100.64/10) and the multicast and reserved ranges are nobody's public receiver.
  if ((a === 100 && b >= 64 && b <= 127) || a >= 224) return 'private';
  return 'public';
};

/** Expands an IPv6 address (no brackets) into its eight 16-bit groups, or null. */
const ipv6Groups = (address: string): number[] | null => {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const bytes = dotted[1].split('.').map(Number);
    if (ipv4Kind(dotted[1]) === null) return null;
    text = `${text.slice(0, -dotted[1].length)}${((bytes[0]! << 8) | bytes[1]!).toString(16)}:${((bytes[2]! << 8) | bytes[3]!).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const part = (half: string | undefined) => (half ? half.split(':') : []);
  const head = part(halves[0]);
  const tail = part(halves[1]);
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const groups = [...head, ...Array<string>(Math.max(fill, 0)).fill('0'), ...tail];
  if (groups.length !== 8 || groups.some((group) => !/^[0-9a-f]{1,4}$/.test(group))) return null;
  return groups.map((group) => parseInt(group, 16));
};

const ipv6Kind = (address: string): Kind | null => {
  const groups = ipv6Groups(address);
  if (!groups) return null;
  const [g0 = 0, , , , , g5 = 0, g6 = 0, g7 = 0] = groups;
  const zeroTo = (end: number) => groups.slice(0, end).every((group) => group === 0);
  if (zeroTo(7) && g7 === 1) return 'loopback';
  if (zeroTo(8)) return 'private';
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible addresses are judged as the IPv4 they carry.
  if (zeroTo(5) && (g5 === 0xffff || g5 === 0)) return ipv4Kind(`${g6 >> 8}.${g6 & 255}.${g7 >> 8}.${g7 & 255}`);
  if ((g0 & 0xfe00) === 0xfc00 || (g0 & 0xffc0) === 0xfe80 || (g0 & 0xff00) === 0xff00) return 'private';
  return 'public';
};

/** How an address literal (IPv4 dotted, or IPv6 with or without brackets) counts; null when `host` is a name. */
export const addressKind = (host: string): Kind | null => ipv4Kind(host) ?? ipv6Kind(host.replace(/^\[|\]$/g, ''));

const allowed = (kind: Kind, allowLoopback: boolean) => kind === 'public' || (allowLoopback && kind === 'loopback');

/** Why `url` may not be sent to, or null when it may. */
export const refusedAddress = async (url: string, allowLoopback: boolean, resolve: Resolve): Promise<string | null> => {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'Not an address';
  }
  if (parsed.protocol !== 'https:' && !(allowLoopback && parsed.protocol === 'http:')) return 'Must be an https:// address';
  if (parsed.username || parsed.password) return 'An address with a user name or password is not allowed';
  const host = parsed.hostname.replace(/\.$/, '').toLowerCase();
  const literal = addressKind(host);
  if (literal) return allowed(literal, allowLoopback) ? null : `The address ${host} is not a public one`;
  if (host === 'localhost' || host.endsWith('.localhost')) return allowLoopback ? null : 'localhost is not allowed';
  if (host === 'metadata.google.internal' || host.endsWith('.internal')) return `${host} is not a public address`;
  const answers = await resolve(host);
  if (answers.length === 0) return `${host} has no address`;
  for (const answer of answers) {
    const kind = addressKind(answer);
    if (!kind || !allowed(kind, allowLoopback)) return `${host} points to ${answer}, which is not a public address`;
  }
  return null;
};
