import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createUser, expectConflict, expectError, signedIn, type TestUser } from './support';

// Security review (docs/decisions.md#the-security-review), finding 7: text is NFC-normalised and trimmed, invisible-only text is "Required",
// bidi controls are refused, and unique names compare look-alikes as the same name.

let token: string;
let me: TestUser;
beforeAll(async () => {
  ({ token, user: me } = await signedIn());
});

const tag = () => crypto.randomUUID().slice(0, 6).toUpperCase();
const post = (path: string, json: unknown) => api(path, { method: 'POST', token, json });
const patch = (path: string, json: unknown) => api(path, { method: 'PATCH', token, json });

/** Every way the outside tester wrote `name` so that it looked the same. */
const lookAlikes = (name: string) => [
  `${name} `,
  ` ${name}`,
  name.replace(' ', '\u00a0'),
  `${name}\u200b`,
  name.replace('I', '\u0406'),
  name.replace('G', '\uff27'),
  name.toLowerCase(),
  name.replace(' ', '   '),
];

describe.each(['companies', 'ticket-categories'])('unique names of %s', (path) => {
  it.each(lookAlikes('GIFS Group').map((value, i) => [i, JSON.stringify(value), value] as const))(
    'look-alike %i (%s) of an existing name is a duplicate: 409',
    async (_, __, lookAlike) => {
      const suffix = tag();
      expect((await post(path, { name: `GIFS Group ${suffix}` })).status).toBe(201);
      await expectConflict(await post(path, { name: `${lookAlike} ${suffix}` }));
    },
  );

  it('renaming another record to a look-alike is a duplicate too', async () => {
    const suffix = tag();
    expect((await post(path, { name: `GIFS Group ${suffix}` })).status).toBe(201);
    const other = (await (await post(path, { name: `Other ${suffix}` })).json()) as { id: number };
    await expectConflict(await patch(`${path}/${other.id}`, { name: `G\u0406FS\u00a0Group ${suffix}\u200b` }));
  });

  it('lets exactly one of eight concurrent look-alike creates through', async () => {
    const suffix = tag();
    const responses = await Promise.all(lookAlikes(`GIFS Group`).map((value) => post(path, { name: `${value} ${suffix}` })));
    const statuses = responses.map((res) => res.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
  });

  it('stores the name NFC-normalised and trimmed', async () => {
    const suffix = tag();
    const res = await post(path, { name: `  Cafe\u0301 ${suffix}\u200b\u00a0 ` });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { name: string }).name).toBe(`Caf\u00e9 ${suffix}`);
  });
});

describe('user emails', () => {
  it('a padded or differently cased copy of an existing email is a duplicate: 409', async () => {
    const existing = await createUser();
    for (const email of [` ${existing.email}`, `${existing.email.toUpperCase()} `]) {
      await expectConflict(await post('users', { firstName: 'Copy', surname: 'Cat', email, password: 'velvet thunder 77' }));
    }
  });

  it('stores an email trimmed', async () => {
    const email = `trim-${tag().toLowerCase()}@example.com`;
    const res = await post('users', { firstName: 'Trim', surname: 'Med', email: `  ${email}\u00a0`, password: 'velvet thunder 77' });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { email: string }).email).toBe(email);
  });
});

const INVISIBLE = [
  ['zero-width spaces', '\u200b\u200b\u200b'],
  ['Hangul fillers', '\u3164\u3164'],
  ['blank braille', '\u2800\u2800'],
  ['a mix with spaces', ' \u200b \u3164 \u2800 '],
] as const;

describe('text made only of invisible characters is “Required”', () => {
  it.each(INVISIBLE)('%s as a company name', async (_, value) => {
    const error = await expectError(await post('companies', { name: value }), 400);
    expect(error.errors?.name).toContain('Required');
  });

  it.each(INVISIBLE)('%s as a ticket title and as a comment', async (_, value) => {
    expect((await expectError(await post('tickets', { title: value }), 400)).errors?.title).toContain('Required');
    const ticket = (await (await post('tickets', { title: 'Invisible comments' })).json()) as { id: number };
    expect((await expectError(await post(`tickets/${ticket.id}/comments`, { body: value }), 400)).errors?.body).toContain('Required');
  });

  it.each(INVISIBLE)('%s as a first name in the profile', async (_, value) => {
    const error = await expectError(await patch('users/profile', { id: me.id, firstName: value, surname: 'S', email: me.email }), 400);
    expect(error.errors?.firstName).toContain('Required');
  });
});

describe('bidi controls are refused', () => {
  const CONTROLS = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
  const codes = CONTROLS.map((ch) => [`U+${ch.codePointAt(0)?.toString(16).toUpperCase()}`, ch] as const);

  it.each(codes)('%s inside a company name, a comment and a profile surname', async (_, ch) => {
    const name = `invoice${ch}fdp.exe ${tag()}`;
    const company = await expectError(await post('companies', { name }), 400);
    expect(company.errors?.name?.[0]).toMatch(/direction/);
    const ticket = (await (await post('tickets', { title: 'Bidi comments' })).json()) as { id: number };
    expect((await expectError(await post(`tickets/${ticket.id}/comments`, { body: `see ${ch}here` }), 400)).message).toMatch(/direction/);
    await expectError(await patch('users/profile', { id: me.id, firstName: 'Ok', surname: `Smith${ch}`, email: me.email }), 400);
    const stored = await env.DB.prepare('SELECT count(*) AS n FROM companies WHERE name = ?1').bind(name).first<number>('n');
    expect(stored).toBe(0);
  });

  it('keeps left-to-right and right-to-left marks, and right-to-left text, which reorder nothing by force', async () => {
    expect((await post('companies', { name: `\u05e9\u05dc\u05d5\u05dd \u200f${tag()}` })).status).toBe(201);
  });
});
