import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

// docs/api.md is the API reference: every call of the shared contract, JSON and files alike,
// must be named there, as `METHOD /path` in code quotes.

const callsOf = (contract: string, name: string) => {
  const body = new RegExp(`export interface ${name} \\{([\\s\\S]*?)\\n\\}`).exec(contract)?.[1] ?? '';
  return [...body.matchAll(/^\s*'((?:GET|POST|PUT|PATCH|DELETE) \/[^']*)'/gm)].map((match) => match[1] as string);
};

describe('docs/api.md', () => {
  it('names every call of src/shared/api-contract.ts', async () => {
    const [contract, doc] = await Promise.all([readFile('src/shared/api-contract.ts', 'utf8'), readFile('docs/api.md', 'utf8')]);
    const calls = [...callsOf(contract, 'ApiContract'), ...callsOf(contract, 'ApiFiles')];
    expect(calls.length).toBeGreaterThan(40);
    expect(calls.filter((call) => !doc.includes(`\`${call}\``))).toEqual([]);
  });
});
