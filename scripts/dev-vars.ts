import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const FILE = '.dev.vars';

const append = (current: string, line: string) => `${current}${current && !current.endsWith('\n') ? '\n' : ''}${line}\n`;

/**
 * Gives a fresh clone its own JWT_SECRET in .dev.vars (git-ignored), leaving an existing one
 * alone, and marks CF-Connecting-IP untrusted for `npm run dev` (Miniflare keeps a client-sent one).
 */
export const ensureDevVars = () => {
  const current = existsSync(FILE) ? readFileSync(FILE, 'utf8') : '';
  let next = current;
  if (!/^TRUST_CF_CONNECTING_IP\s*=/m.test(next)) next = append(next, 'TRUST_CF_CONNECTING_IP="false"');
  const madeSecret = !/^JWT_SECRET\s*=/m.test(next);
  if (madeSecret) next = append(next, `JWT_SECRET="${randomBytes(32).toString('base64url')}"`);
  if (next !== current) writeFileSync(FILE, next, { mode: 0o600 });
  return madeSecret;
};
