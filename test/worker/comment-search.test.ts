import { applyD1Migrations, env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BackupResult, Page, SearchResult, Ticket, TicketComment } from '../../src/shared/types';
import { workerdSha256 } from '../../src/worker/provider/db/backup/format';
import { restoreBackup } from '../../src/worker/provider/db/backup/restore';
import { d1Target } from '../../src/worker/provider/db/backup/restore-target';
import { DERIVED_TABLE_PREFIXES } from '../../src/worker/provider/db/tables';
import { ticketHitsSql } from '../../src/worker/provider/db/ticket-hits';
import { r2Source } from './backup-files';
import { api, readJson, signedIn } from './support';

// A busy ticket: every comment is indexed on its own (migrations/0015_comment_search.sql), so a
// comment costs the same however many came before it, and no value of the index grows with the
// ticket. Before, all of a ticket's comments were one value, rebuilt on every comment: past about
// 440 comments of 5,000 characters it outgrew D1's 2 MB per value.
const COMMENTS = 500;
const COMMENT_CHARS = 5000;
// D1 refuses a string or blob longer than this (docs/operations.md#limits).
const D1_MAX_VALUE_BYTES = 2_000_000;

let token: string;
let userId: number;

/** A word no other test writes: letters only, since a search of digits reads as a ticket number. */
const tag = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(10)), (byte) => String.fromCharCode(97 + (byte % 26))).join('');

const FILLER = 'the router firmware drops the vpn tunnel at night and the printer queue stalls again ';
/** A comment of COMMENT_CHARS characters that holds `word` once. */
const longComment = (word: string) => `${word} ${FILLER.repeat(Math.ceil(COMMENT_CHARS / FILLER.length))}`.slice(0, COMMENT_CHARS);

const listIds = async (q: string) => {
  const { status, body } = await readJson<Page<Ticket>>(await api(`tickets?q=${encodeURIComponent(q)}&pageSize=200`, { token }));
  expect(status).toBe(200);
  return body.items.map((ticket) => ticket.id);
};
const paletteIds = async (q: string) => {
  const { status, body } = await readJson<{ items: SearchResult[] }>(await api(`search?q=${encodeURIComponent(q)}&limit=50`, { token }));
  expect(status).toBe(200);
  return body.items.filter((item) => item.type === 'ticket').map((item) => item.id);
};

const insertComment = (ticketId: number, body: string) =>
  env.DB.prepare('INSERT INTO ticket_comments (ticket_id, user_id, body) VALUES (?1, ?2, ?3)').bind(ticketId, userId, body);

/** Fails unless the comment index holds exactly the words of ticket_comments as they now are. */
const checkCommentIndex = (db = env.DB) => db.prepare("INSERT INTO ticket_comments_fts (ticket_comments_fts, rank) VALUES ('integrity-check', 1)").run();

/** The longest value, in bytes, in any table of the search indexes (their shadow tables included). */
const longestIndexValue = async () => {
  const prefixes = DERIVED_TABLE_PREFIXES.map((prefix) => `name LIKE '${prefix}%'`).join(' OR ');
  const tables = (await env.DB.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND (${prefixes}) AND sql NOT LIKE 'CREATE VIRTUAL%'`).all<{ name: string }>()).results;
  let longest = 0;
  for (const { name } of tables) {
    const columns = (await env.DB.prepare(`SELECT name FROM pragma_table_info('${name}')`).all<{ name: string }>()).results;
    const lengths = columns.map((column) => `coalesce(max(length(CAST("${column.name}" AS BLOB))), 0)`).join(', ');
    const row = await env.DB.prepare(`SELECT max(${lengths}, 0) AS n FROM "${name}"`).first<{ n: number }>();
    longest = Math.max(longest, row?.n ?? 0);
  }
  return longest;
};

beforeAll(async () => {
  const session = await signedIn();
  token = session.token;
  userId = session.user.id;
});

describe('a ticket with 500 comments of 5,000 characters', () => {
  let ticket: Ticket;
  const words = Array.from({ length: COMMENTS }, (_, i) => `c${i}${tag()}`);
  let firstRowsRead = 0;
  let lastRowsRead = 0;

  beforeAll(async () => {
    const created = await readJson<Ticket>(await api('tickets', { method: 'POST', token, json: { title: `Busy ${tag()}` } }));
    expect(created.status).toBe(201);
    ticket = created.body;
    firstRowsRead = (await insertComment(ticket.id, longComment(words[0]!)).run()).meta.rows_read;
    // The comments between, in batches: the triggers run for each row all the same.
    for (let start = 1; start < COMMENTS - 1; start += 100) {
      await env.DB.batch(words.slice(start, Math.min(start + 100, COMMENTS - 1)).map((word) => insertComment(ticket.id, longComment(word))));
    }
    lastRowsRead = (await insertComment(ticket.id, longComment(words[COMMENTS - 1]!)).run()).meta.rows_read;
  }, 120_000);

  it('writes the 500th comment reading no more rows than the first', async () => {
    expect(await env.DB.prepare('SELECT count(*) AS n FROM ticket_comments WHERE ticket_id = ?1').bind(ticket.id).first('n')).toBe(COMMENTS);
    expect(firstRowsRead).toBeGreaterThan(0);
    expect(lastRowsRead).toBe(firstRowsRead);
  });

  it('keeps every value of the search index under D1’s 2 MB', async () => {
    expect(await longestIndexValue()).toBeLessThan(D1_MAX_VALUE_BYTES);
  });

  it('finds the ticket by the first and the last comment’s word, in the list and the palette', async () => {
    expect(await listIds(words[COMMENTS - 1]!)).toEqual([ticket.id]);
    expect(await paletteIds(words[COMMENTS - 1]!)).toEqual([ticket.id]);
    expect(await listIds(words[0]!)).toEqual([ticket.id]);
    // Every word in one comment, as a prefix too; once, however many comments match.
    expect(await listIds(`${words[7]} firmware vp`)).toEqual([ticket.id]);
  });

  it('follows an edit and a delete of one comment through the API', async () => {
    const comments = await readJson<{ items: TicketComment[] }>(await api(`tickets/${ticket.id}/comments`, { token }));
    const last = comments.body.items.find((item) => item.body.startsWith(words[COMMENTS - 1]!));
    expect(last).toBeDefined();
    const edited = tag();
    const patch = await api(`tickets/${ticket.id}/comments/${last!.id}`, { method: 'PATCH', token, json: { body: `now about ${edited}` } });
    expect(patch.status).toBe(200);
    expect(await listIds(words[COMMENTS - 1]!)).toEqual([]);
    expect(await listIds(edited)).toEqual([ticket.id]);

    const deleted = await api(`tickets/${ticket.id}/comments/${last!.id}`, { method: 'DELETE', token });
    expect(deleted.status).toBe(204);
    expect(await listIds(edited)).toEqual([]);
    expect(await paletteIds(edited)).toEqual([]);
    expect(await listIds(words[COMMENTS - 2]!)).toEqual([ticket.id]);
    await checkCommentIndex();
  });

  it('takes a description edit and a new comment on the busy ticket', async () => {
    const word = tag();
    const patch = await api(`tickets/${ticket.id}`, { method: 'PATCH', token, json: { description: `Still happening: ${word}` } });
    expect(patch.status).toBe(200);
    expect(await listIds(word)).toEqual([ticket.id]);
    const another = tag();
    const posted = await api(`tickets/${ticket.id}/comments`, { method: 'POST', token, json: { body: longComment(another) } });
    expect(posted.status).toBe(201);
    expect(await listIds(another)).toEqual([ticket.id]);
  });

  // Backups leave the indexes out; the restore's inserts fill them through the triggers.
  it('is found by its comments in a restored copy', async () => {
    const backup = await readJson<BackupResult>(await api('settings/backup-db', { method: 'POST', token }));
    expect(backup.status).toBe(201);
    await applyD1Migrations(env.RESTORE_DB, env.TEST_MIGRATIONS);
    await restoreBackup(d1Target(env.RESTORE_DB), r2Source(backup.body.key), { sha256: workerdSha256 });
    const found = await env.RESTORE_DB.prepare(ticketHitsSql('?1')).bind(`"${words[COMMENTS - 2]}"`).all();
    expect(found.results.map((row) => Object.values(row)[0])).toEqual([ticket.id]);
    await checkCommentIndex(env.RESTORE_DB);
  }, 120_000);
});

describe('matching a ticket by its own text or by one comment', () => {
  it('finds a ticket when every word is in its title and description, or every word in one of its comments', async () => {
    const [inTitle, inBody, inComment, inOther] = [tag(), tag(), tag(), tag()];
    const created = await readJson<Ticket>(await api('tickets', { method: 'POST', token, json: { title: `Scanner ${inTitle}`, description: `offline ${inBody}` } }));
    const ticket = created.body;
    for (const body of [`first ${inComment} note`, `second ${inOther} note`]) {
      expect((await api(`tickets/${ticket.id}/comments`, { method: 'POST', token, json: { body } })).status).toBe(201);
    }
    expect(await listIds(`${inTitle} ${inBody}`)).toEqual([ticket.id]);
    expect(await listIds(`"${inComment} note"`)).toEqual([ticket.id]);
    expect(await listIds(`${inComment} first`)).toEqual([ticket.id]);
    // The title is the palette's first rank; a comment alone never puts a ticket there.
    expect(await paletteIds(inComment)).toEqual([ticket.id]);
    await checkCommentIndex();
  });

  it('does not find a comment of a moved or deleted row under its old ticket', async () => {
    const word = tag();
    const [a, b] = await Promise.all(
      ['From', 'To'].map(async (title) => (await readJson<Ticket>(await api('tickets', { method: 'POST', token, json: { title: `${title} ${tag()}` } }))).body),
    );
    const { meta } = await insertComment(a!.id, `moved ${word}`).run();
    expect(await listIds(word)).toEqual([a!.id]);
    await env.DB.prepare('UPDATE ticket_comments SET ticket_id = ?2 WHERE id = ?1').bind(meta.last_row_id, b!.id).run();
    expect(await listIds(word)).toEqual([b!.id]);
    await checkCommentIndex();
  });
});
