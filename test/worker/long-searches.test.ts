import { beforeAll, describe, expect, it } from 'vitest';
import type { Company, Page, SearchResult, TicketCategory, User } from '../../src/shared/types';
import { api, createUser, readJson, signedIn } from './support';

/**
 * D1 refuses a LIKE pattern over 50 bytes, and local workerd does too once a row is there to
 * compare; searches take up to 200 characters. These search at that length, with four-byte
 * characters and LIKE's own wildcards, against rows that are present.
 */
let token: string;

const unique = () => crypto.randomUUID().replaceAll('-', '').slice(0, 12);
// 4 bytes each in UTF-8: 14 of them are a 56-byte name.
const ROCKETS = '🚀'.repeat(14);

const get = async <T>(path: string) => {
  const { status, body } = await readJson<T>(await api(path, { token }));
  expect(status, path).toBe(200);
  return body;
};
const listNames = async (path: string, q: string) =>
  (await get<Page<Company | TicketCategory>>(`${path}?q=${encodeURIComponent(q)}&pageSize=200`)).items.map((item) => item.name);
const userEmails = async (q: string) => (await get<Page<User>>(`users?q=${encodeURIComponent(q)}&pageSize=200`)).items.map((user) => user.email);
const hits = async (q: string) =>
  (await get<{ items: SearchResult[] }>(`search?q=${encodeURIComponent(q)}&limit=50`)).items.map((item) => `${item.type}:${item.title}`);

const tag = unique();
const email = `${'long.address.of.someone'}.${tag}@example-company.com`;
const company = `${ROCKETS} ${tag} 100%_off\\ Holdings`;
const category = `${tag} 50% _under\\ ${'x'.repeat(40)}`;

beforeAll(async () => {
  ({ token } = await signedIn());
  expect(new TextEncoder().encode(email).byteLength).toBeGreaterThan(50);
  await createUser({ email, firstName: 'Longa', surname: `Mail${tag}` });
  for (const [path, name] of [['companies', company], ['ticket-categories', category], ['companies', `${ROCKETS} ${tag} 100xyoff Holdings`]] as const) {
    expect((await api(path, { method: 'POST', token, json: { name } })).status).toBe(201);
  }
});

describe('searching past LIKE’s 50-byte pattern', () => {
  it('finds a person by a whole email longer than 50 bytes, in the list and the palette', async () => {
    expect(await userEmails(email)).toEqual([email]);
    expect(await userEmails(email.toUpperCase())).toEqual([email]);
    expect(await hits(email)).toContain(`user:Longa Mail${tag}`);
  });

  it('finds companies and categories by names of four-byte characters and wildcards, taking % _ \\ literally', async () => {
    expect(await listNames('companies', company)).toEqual([company]);
    expect(await listNames('companies', `${tag} 100%_off\\`)).toEqual([company]);
    expect(await listNames('companies', `${tag} 100%`)).toEqual([company]);
    expect(await listNames('ticket-categories', category)).toEqual([category]);
    expect(await listNames('ticket-categories', `50% _under\\ ${'x'.repeat(40)}`)).toEqual([category]);
    // The palette matches names from their start: the whole 60-byte name, and not its middle.
    expect(await hits(company)).toEqual([`company:${company}`]);
    expect(await hits(category)).toEqual([`ticket_category:${category}`]);
    expect(await hits(`${ROCKETS} ${tag} 100_`)).toEqual([]);
  });

  it('answers 200 with nothing found for a 200-character search of every kind', async () => {
    // 200 UTF-16 units, as the schema counts them: 298 bytes in UTF-8.
    const long = `${'é🚀%_\\'.repeat(33)}ab`;
    expect(long).toHaveLength(200);
    expect(await userEmails(long)).toEqual([]);
    expect(await listNames('companies', long)).toEqual([]);
    expect(await listNames('ticket-categories', long)).toEqual([]);
    expect(await hits(long)).toEqual([]);
    expect(await hits(`${email}${'a'.repeat(200 - email.length)}`)).toEqual([]);
  });
});
