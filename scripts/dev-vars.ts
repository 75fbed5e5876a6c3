import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const FILE = '.dev.vars';

/** Gives a fresh clone its own JWT_SECRET in .dev.vars (git-ignored), leaving an existing one alone. */
export const ensureDevVars = () => {
  const current = existsSync(FILE) ? readFileSync(FILE, 'utf8') : '';
  if (/^JWT_SECRET\s*=/m.test(current)) return false;
  const secret = randomBytes(32).toString('base64url');
  const separator = current && !current.endsWith('\n') ? '\n' : '';
  writeFileSync(FILE, `${current}${separator}JWT_SECRET="${secret}"\n`, { mode: 0o600 });
  return true;
};
