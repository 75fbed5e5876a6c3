import { applyD1Migrations, env } from 'cloudflare:test';
import { expect, it } from 'vitest';
import { ticketHitsSql } from '../../src/worker/provider/db/ticket-hits';

// MIGRATION_DB starts empty in this file (storage is isolated per test file), so it can hold the
// schema as it was before 0015 and tickets and comments indexed by 0007's triggers, the comments
// of a ticket as one value of tickets_fts.
const migration = '0015_comment_search';
const before = env.TEST_MIGRATIONS.filter((m) => m.name < '0015');
const rest = env.TEST_MIGRATIONS.filter((m) => m.name.startsWith(migration));
const db = env.MIGRATION_DB;

const hits = async (match: string) =>
  (await db.prepare(`${ticketHitsSql('?1')} ORDER BY 1`).bind(match).all<Record<string, number>>()).results.map((row) => Object.values(row)[0]);
const checkIndexes = () =>
  db.batch([
    db.prepare("INSERT INTO tickets_fts (tickets_fts, rank) VALUES ('integrity-check', 1)"),
    db.prepare("INSERT INTO ticket_comments_fts (ticket_comments_fts, rank) VALUES ('integrity-check', 1)"),
  ]);

it('0015 indexes every existing comment on its own, keeps the tickets’ own text, and follows later writes', async () => {
  await applyD1Migrations(db, before);
  await db.batch([
    db.prepare("INSERT INTO users (id, first_name, surname, email, password_hash) VALUES (1, 'Ada', 'Admin', 'ada@example.com', 'x')"),
    db.prepare("INSERT INTO tickets (id, title, description, reporter_id) VALUES (1, 'Scanner offline', 'since the café move', 1), (2, 'Printer jams', '', 1)"),
    db.prepare(
      "INSERT INTO ticket_comments (id, ticket_id, user_id, body) VALUES (1, 1, 1, 'Rebooted the router'), (2, 1, 1, 'Firmware updated'), (3, 2, 1, 'Tray two sticks')",
    ),
  ]);
  expect(await db.prepare("SELECT rowid FROM tickets_fts WHERE tickets_fts MATCH 'firmware'").first('rowid')).toBe(1);

  await applyD1Migrations(db, rest);

  // The ticket index holds the title and description only; each comment is found on its own.
  const columns = (await db.prepare("SELECT name FROM pragma_table_info('tickets_fts')").all<{ name: string }>()).results;
  expect(columns.map((column) => column.name)).toEqual(['title', 'body']);
  expect(await hits('"cafe"')).toEqual([1]);
  expect(await hits('"firmware"')).toEqual([1]);
  expect(await hits('"tray" "two"')).toEqual([2]);
  expect(await hits('"printer"')).toEqual([2]);
  expect(await hits('"router" "firmware"')).toEqual([]);
  const comments = (await db.prepare("SELECT rowid FROM ticket_comments_fts WHERE ticket_comments_fts MATCH 'rebooted OR firmware OR tray' ORDER BY rowid").all()).results;
  expect(comments.map((row) => row.rowid)).toEqual([1, 2, 3]);
  await checkIndexes();

  // The new triggers follow a comment's insert, edit and delete and a ticket's edit.
  await db.batch([
    db.prepare("INSERT INTO ticket_comments (id, ticket_id, user_id, body) VALUES (4, 2, 1, 'Replaced the roller')"),
    db.prepare("UPDATE ticket_comments SET body = 'Tray one sticks' WHERE id = 3"),
    db.prepare('DELETE FROM ticket_comments WHERE id = 2'),
    db.prepare("UPDATE tickets SET title = 'Scanner back online' WHERE id = 1"),
  ]);
  expect(await hits('"roller"')).toEqual([2]);
  expect(await hits('"two"')).toEqual([]);
  expect(await hits('"one"')).toEqual([2]);
  expect(await hits('"firmware"')).toEqual([]);
  expect(await hits('"online"')).toEqual([1]);
  await checkIndexes();
});
