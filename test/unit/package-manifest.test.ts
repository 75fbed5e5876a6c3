import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

interface LockEntry {
  version?: string;
  hasInstallScript?: boolean;
  engines?: { node?: string } | string[];
}

const read = <T>(file: string) => JSON.parse(readFileSync(join(process.cwd(), file), 'utf8')) as T;
const manifest = read<{ devDependencies: Record<string, string>; allowScripts?: Record<string, boolean> }>('package.json');
const lock = read<{ packages: Record<string, LockEntry> }>('package-lock.json');

/** The oldest Node the project supports (package.json engines: >=20.19). */
const OLDEST_NODE = [20, 19, 0] as const;

const compare = (a: readonly number[], b: readonly number[]) => {
  for (let i = 0; i < 3; i += 1) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
};

/** Whether one comparator of a semver range (`>=22.12.0`, `^18`, `20.x`) accepts `version`. */
const meets = (version: readonly number[], comparator: string) => {
  const match = /^(>=|<=|>|<|\^|~|=)?v?(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?/.exec(comparator);
  if (!match) return true;
  const [, op = '=', ...parts] = match;
  const wanted = parts.map((part) => (part === undefined || part === 'x' || part === '*' ? 0 : Number(part)));
  const order = compare(version, wanted);
  if (op === '>=') return order >= 0;
  if (op === '>') return order > 0;
  if (op === '<=') return order <= 0;
  if (op === '<') return order < 0;
  if (op === '^') return order >= 0 && version[0] === wanted[0];
  if (op === '~') return order >= 0 && version[0] === wanted[0] && version[1] === wanted[1];
  // A bare version: as precise as it is written (`20` takes every 20.x).
  return parts.every((part, i) => part === undefined || part === 'x' || part === '*' || Number(part) === version[i]);
};

/** Whether a Node engines range (`>=18 <20 || >=22`) accepts `version`. */
const acceptsNode = (range: string, version: readonly number[] = OLDEST_NODE) =>
  range
    .split('||')
    .map((alternative) => alternative.trim().replace(/\s*(>=|<=|>|<)\s+/g, '$1'))
    .some((alternative) => alternative === '' || alternative === '*' || alternative.split(/\s+/).every((comparator) => meets(version, comparator)));

describe('package.json and its lock', () => {
  it('reads engines ranges as npm does', () => {
    expect(acceptsNode('>=22.12.0')).toBe(false);
    expect(acceptsNode('>=18')).toBe(true);
    expect(acceptsNode('^18.18.0 || ^20.9.0 || >=21.1.0')).toBe(true);
    expect(acceptsNode('>=18 <20 || >=22')).toBe(false);
    expect(acceptsNode('20.x')).toBe(true);
  });

  it('lets every package of the lock that has an install script run it', () => {
    const allowed = manifest.allowScripts ?? {};
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(withScripts.length).toBeGreaterThan(0);
    expect([...new Set(withScripts.filter((name) => allowed[name] !== true))]).toEqual([]);
  });

  it('has no devDependency whose engines exclude Node 20', () => {
    const excluding = Object.keys(manifest.devDependencies).filter((name) => {
      const engines = lock.packages[`node_modules/${name}`]?.engines;
      const node = engines && !Array.isArray(engines) ? engines.node : undefined;
      return node !== undefined && !acceptsNode(node);
    });
    expect(excluding).toEqual([]);
  });
});
