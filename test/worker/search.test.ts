import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SearchResult } from '../../src/shared/types';
import type { Page, Ticket } from '../../src/shared/types';
import { api, createUser, expectError, readJson, signedIn } from './support';

let token: string;

/** A word no other test writes: letters only, since a search of digits reads as a ticket number. */
const tag = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(10)), (byte) => String.fromCharCode(97 + (byte % 26))).join('');

const createTicket = async (body: Record<string, unknown>) => {
  const res = await api('tickets', { method: 'POST', token, json: body });
  expect(res.status).toBe(201);
  return (await res.json()) as Ticket;
};
const comment = async (ticketId: number, body: string) =>
  expect((await api(`tickets/${ticketId}/comments`, { method: 'POST', token, json: { body } })).status).toBe(201);

const listIds = async (q: string) => {
  const { status, body } = await readJson<Page<Ticket>>(await api(`tickets?q=${encodeURIComponent(q)}&pageSize=200`, { token }));
  expect(status).toBe(200);
  return body.items.map((ticket) => ticket.id);
};
const search = async (q: string, limit = 50) => {
  const { status, body } = await readJson<{ items: SearchResult[] }>(await api(`search?q=${encodeURIComponent(q)}&limit=${limit}`, { token }));
  expect(status).toBe(200);
  return body.items;
};
const ticketIds = (items: SearchResult[]) => items.filter((item) => item.type === 'ticket').map((item) => item.id);

beforeAll(async () => {
  ({ token } = await signedIn());
});

describe('full-text index follows the tickets and their comments', () => {
  it('indexes a new ticket, follows edits of its title and description, and forgets it when deleted', async () => {
    const [first, second, third] = [tag(), tag(), tag()];
    const ticket = await createTicket({ title: `Printer ${first} jammed`, description: `tray ${second}` });
    expect(await listIds(first)).toEqual([ticket.id]);
    expect(await listIds(second)).toEqual([ticket.id]);

    await api(`tickets/${ticket.id}`, { method: 'PATCH', token, json: { title: `Printer ${third} fixed`, description: 'nothing' } });
    expect(await listIds(first)).toEqual([]);
    expect(await listIds(second)).toEqual([]);
    expect(await listIds(third)).toEqual([ticket.id]);

    // The app never deletes a ticket; here it goes with the watchers its reporter became.
    await env.DB.batch([
      env.DB.prepare('DELETE FROM ticket_watchers WHERE ticket_id = ?1').bind(ticket.id),
      env.DB.prepare('DELETE FROM tickets WHERE id = ?1').bind(ticket.id),
    ]);
    expect(await listIds(third)).toEqual([]);
    const left = await env.DB.prepare('SELECT count(*) AS n FROM tickets_fts WHERE rowid = ?1').bind(ticket.id).first<{ n: number }>();
    expect(left?.n).toBe(0);
  });

  it('finds a ticket whose only match is in a comment, until the comment is edited or deleted', async () => {
    const [word, other] = [tag(), tag()];
    const ticket = await createTicket({ title: 'Nothing to see here' });
    await comment(ticket.id, `The ${word} keeps dropping`);
    await comment(ticket.id, `Second note about ${other}`);
    expect(await listIds(word)).toEqual([ticket.id]);
    expect(ticketIds(await search(word))).toEqual([ticket.id]);

    await env.DB.prepare("UPDATE ticket_comments SET body = 'edited' WHERE ticket_id = ?1 AND body LIKE ?2").bind(ticket.id, `%${word}%`).run();
    expect(await listIds(word)).toEqual([]);
    expect(await listIds(other)).toEqual([ticket.id]);
    await env.DB.prepare('DELETE FROM ticket_comments WHERE ticket_id = ?1').bind(ticket.id).run();
    expect(await listIds(other)).toEqual([]);
  });
});

describe('what a search box understands', () => {
  it('matches words in any order, a prefix of the last word, a quoted phrase, #123 and 123', async () => {
    const word = tag();
    const router = await createTicket({ title: `Router ${word} drops the VPN at night` });
    const other = await createTicket({ title: `VPN ${word} night shift drops` });
    expect((await listIds(`night ${word} router`)).sort()).toEqual([router.id]);
    expect(await listIds(`${word} rout`)).toEqual([router.id]);
    expect((await listIds(`${word} vpn`)).sort((a, b) => a - b)).toEqual([router.id, other.id]);
    expect(await listIds(`${word} "drops the vpn"`)).toEqual([router.id]);
    expect(await listIds(`"vpn night" ${word}`)).toEqual([]);
    expect(await listIds(`#${other.id}`)).toEqual([other.id]);
    expect(await listIds(String(other.id))).toEqual([other.id]);
  });

  it('ranks the ticket number first, then title matches, then body and comment matches, newest first among equals', async () => {
    const word = tag();
    const olderTitle = await createTicket({ title: `${word} older title` });
    const inBody = await createTicket({ title: 'Body only', description: `mentions ${word}` });
    const inComment = await createTicket({ title: 'Comment only' });
    await comment(inComment.id, `see ${word}`);
    const newerTitle = await createTicket({ title: `${word} newer title` });
    // created_at has millisecond precision; make the order certain.
    await env.DB.batch(
      [olderTitle, inBody, inComment, newerTitle].map((ticket, i) =>
        env.DB.prepare('UPDATE tickets SET created_at = ?2 WHERE id = ?1').bind(ticket.id, `2030-01-0${i + 1}T00:00:00.000Z`),
      ),
    );
    expect(ticketIds(await search(word))).toEqual([newerTitle.id, olderTitle.id, inComment.id, inBody.id]);
    const byNumber = await search(`#${inBody.id}`);
    expect(byNumber[0]).toMatchObject({ type: 'ticket', id: inBody.id, title: `#${inBody.id} Body only` });
  });

  it.each(['', '   ', '*', '"', '"unclosed', 'NEAR(a b', 'a AND OR NOT', 'title:x', '{title}: x', '^x', '-x', "'; DROP TABLE tickets; --", '💥', 'x'.repeat(200)])(
    'answers %j with results, never an error',
    async (q) => {
      const res = await api(`tickets?q=${encodeURIComponent(q)}`, { token });
      expect(res.status).toBe(200);
      const found = await api(`search?q=${encodeURIComponent(q)}`, { token });
      expect(found.status).toBe(200);
      expect(Array.isArray(((await found.json()) as { items: unknown }).items)).toBe(true);
    },
  );

  it('refuses a 10 kB query and a bad limit with a 400 naming the field', async () => {
    const long = encodeURIComponent('word '.repeat(2048));
    expect((await expectError(await api(`search?q=${long}`, { token }), 400)).errors).toHaveProperty('q');
    expect((await expectError(await api(`tickets?q=${long}`, { token }), 400)).errors).toHaveProperty('q');
    for (const limit of ['0', '51', 'abc', '1.5']) {
      expect((await expectError(await api(`search?q=x&limit=${limit}`, { token }), 400)).errors).toHaveProperty('limit');
    }
  });

  it('answers 401 without a token', async () => {
    expect((await api('search?q=x')).status).toBe(401);
  });
});

describe('records other than tickets', () => {
  it('finds people by first name, surname, both, or email, and says when they are inactive', async () => {
    const surname = `Zz${tag()}`;
    const person = await createUser({ firstName: 'Samwise', surname });
    const gone = await createUser({ firstName: 'Samuel', surname, isActive: false });
    const both = await search(`Samw ${surname}`);
    expect(both.filter((item) => item.type === 'user')).toEqual([{ type: 'user', id: person.id, title: `Samwise ${surname}`, subtitle: person.email }]);
    const bySurname = (await search(surname)).filter((item) => item.type === 'user');
    expect(bySurname.map((item) => item.id).sort((a, b) => a - b)).toEqual([person.id, gone.id]);
    expect(bySurname.find((item) => item.id === gone.id)?.subtitle).toBe(`${gone.email} · Inactive`);
    expect((await search(person.email.slice(0, 12))).some((item) => item.type === 'user' && item.id === person.id)).toBe(true);
  });

  it('finds companies by name or code and categories by name', async () => {
    const name = `Qq ${tag()} Freight`;
    const company = (await (await api('companies', { method: 'POST', token, json: { name, code: `QC${tag().slice(0, 4)}` } })).json()) as { id: number; code: string };
    const category = (await (await api('ticket-categories', { method: 'POST', token, json: { name: `${name} issues` } })).json()) as { id: number };
    const byName = await search(name.slice(0, 10));
    expect(byName).toContainEqual({ type: 'company', id: company.id, title: name, subtitle: `Company · ${company.code}` });
    expect(byName.some((item) => item.type === 'ticket_category' && item.id === category.id)).toBe(true);
    expect((await search(company.code)).some((item) => item.type === 'company' && item.id === company.id)).toBe(true);
  });

  it('finds statements by period written as digits or as a month name, and invoice lines by reference', async () => {
    const reference = `REF-${tag()}`;
    const line = (await (
      await api('invoices/gifs-sla/lines', { method: 'POST', token, json: { period: '2031-09', description: 'SLA', quantity: 1, unitPriceCents: 100, reference, status: 'approved' } })
    ).json()) as { id: number };
    const statement = (await (await api('invoices/gifs/statements', { method: 'POST', token, json: { period: '2031-09' } })).json()) as { id: number };
    for (const q of ['2031-09', '2031-0', 'September 2031', 'sep 2031', 'GIFS-2031-09-1']) {
      expect((await search(q)).some((item) => item.type === 'statement' && item.id === statement.id), q).toBe(true);
    }
    expect((await search('October 2031')).some((item) => item.type === 'statement' && item.id === statement.id)).toBe(false);
    const found = await search(reference.slice(0, 10));
    expect(found).toContainEqual(expect.objectContaining({ type: 'invoice_line', id: line.id, title: reference }));
  });

  it("names an invoice line's ledger, which its address needs, and nothing of the kind on other hits", async () => {
    const reference = `LEDGER-${tag()}`;
    const lines = [];
    for (const source of ['autofi', 'gifs-azure'] as const) {
      const res = await api(`invoices/${source}/lines`, { method: 'POST', token, json: { period: '2031-10', description: 'Ledger', quantity: 1, unitPriceCents: 100, reference: `${reference}-${source}` } });
      expect(res.status).toBe(201);
      lines.push({ source, id: ((await res.json()) as { id: number }).id });
    }
    const found = await search(reference);
    for (const { source, id } of lines) {
      expect(found).toContainEqual(expect.objectContaining({ type: 'invoice_line', id, source }));
    }
    const company = (await (await api('companies', { method: 'POST', token, json: { name: `${reference} Co` } })).json()) as { id: number };
    expect((await search(`${reference} Co`)).find((item) => item.type === 'company' && item.id === company.id)).not.toHaveProperty('source');
  });

  it('keeps to the limit', async () => {
    const word = tag();
    for (let i = 0; i < 4; i += 1) await createTicket({ title: `${word} number ${i}` });
    expect(await search(word, 3)).toHaveLength(3);
  });
});

describe('prefix matches read indexes', () => {
  it.each([
    ['users', "SELECT id FROM users WHERE first_name LIKE ?1 ESCAPE '\\' OR surname LIKE ?1 ESCAPE '\\' OR email LIKE ?1 ESCAPE '\\'"],
    ['companies', "SELECT id FROM companies WHERE name LIKE ?1 ESCAPE '\\' OR code LIKE ?1 ESCAPE '\\'"],
    ['ticket_categories', "SELECT id FROM ticket_categories WHERE name LIKE ?1 ESCAPE '\\'"],
    ['invoice_lines', "SELECT id FROM invoice_lines WHERE reference LIKE ?1 ESCAPE '\\'"],
  ])('%s', async (table, sql) => {
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`).bind('ab%').all<{ detail: string }>();
    const steps = results.map((step) => step.detail);
    expect(steps.some((step) => step.startsWith(`SCAN ${table}`)), steps.join('; ')).toBe(false);
    expect(steps.some((step) => step.startsWith(`SEARCH ${table} USING`)), steps.join('; ')).toBe(true);
  });
});
