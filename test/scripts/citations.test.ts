import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The repository explains itself: a comment may point to a document only if the repository holds
// it (docs/, the README), down to the section, and never to an issue tracker's numbers.

const FOLDERS = ['src', 'scripts', 'test', 'migrations'];
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', ...FOLDERS], { encoding: 'utf8' })
  .split('\n')
  .filter((file) => /\.(ts|tsx|js|sql)$/.test(file) && existsSync(file));

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const anchorsOf = (document: string) =>
  new Set([...readFileSync(document, 'utf8').matchAll(/^#{1,6}\s+(.+)$/gm)].map((match) => slug(match[1] as string)));

const DOCUMENT = /(?<![\w/.-])((?:[\w.-]+\/)*[\w.-]+\.md)(?:#([\w-]+))?/g;
const ISSUE = /\b[Ii]ssues? #?\d/;

const citations = files.flatMap((file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line, i) => [...line.matchAll(DOCUMENT)].map((match) => ({ where: `${file}:${i + 1}`, document: match[1] as string, anchor: match[2], file }))),
);

describe('citations in src/, scripts/, test/ and migrations/', () => {
  it('cite only documents the repository holds, and sections they have', () => {
    expect(citations.length).toBeGreaterThan(50);
    const broken = citations.filter(({ document, anchor, file }) => {
      const found = [document, path.join(path.dirname(file), document)].find((candidate) => existsSync(candidate));
      return !found || (anchor !== undefined && !anchorsOf(found).has(anchor));
    });
    expect(broken.map(({ where, document, anchor }) => `${where}: ${document}${anchor ? `#${anchor}` : ''}`)).toEqual([]);
  });

  it('cite no issue numbers', () => {
    const cited = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (ISSUE.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(cited).toEqual([]);
  });
});
