import { applyD1Migrations, env } from 'cloudflare:test';
import { expect, it } from 'vitest';

// MIGRATION_DB starts empty in this file, so it can hold the schema as it was before 0013 and
// data written then: 0013 rebuilds the audit log to widen its action and entity lists for
// attachments, corrections and imports; 0014 versions comments and time entries.
const before = env.TEST_MIGRATIONS.filter((m) => m.name < '0013');
const rest = env.TEST_MIGRATIONS.filter((m) => m.name >= '0013');
const db = env.MIGRATION_DB;

it('0013 and 0014 keep every audit entry as it was, takes the new actions, and versions comments and time entries from 1', async () => {
  await applyD1Migrations(db, before);
  await db.batch([
    db.prepare("INSERT INTO users (id, first_name, surname, email, password_hash) VALUES (1, 'Ada', 'Admin', 'ada@example.com', 'x')"),
    db.prepare("INSERT INTO tickets (id, title, reporter_id) VALUES (1, 'Old ticket', 1)"),
    db.prepare("INSERT INTO ticket_comments (id, ticket_id, user_id, body) VALUES (1, 1, 1, 'Old comment')"),
    db.prepare("INSERT INTO time_entries (id, ticket_id, user_id, work_date, minutes) VALUES (1, 1, 1, '2026-01-02', 450)"),
    db.prepare(
      `INSERT INTO audit_log (id, at, actor_id, action, entity, entity_id, changes, request_id) VALUES
        (7, '2026-01-02T10:00:00.000Z', 1, 'time', 'ticket', 1, '{"minutes":[null,450]}', 'req-1'),
        (9, '2026-01-03T10:00:00.000Z', NULL, 'login_failed', 'session', NULL, '{}', NULL)`,
    ),
  ]);
  const entries = 'SELECT id, at, actor_id, action, entity, entity_id, changes, request_id FROM audit_log ORDER BY id';
  const kept = (await db.prepare(entries).all()).results;

  await applyD1Migrations(db, rest);

  expect((await db.prepare(entries).all()).results).toEqual(kept);
  expect(await db.prepare('SELECT version FROM ticket_comments').first('version')).toBe(1);
  expect(await db.prepare('SELECT version FROM time_entries').first('version')).toBe(1);
  await db.prepare("INSERT INTO audit_log (actor_id, action, entity, entity_id) VALUES (1, 'time_edit', 'ticket', 1), (1, 'import', 'import', 1)").run();
  // The log counts on from the old entries, and its CHECK still refuses what no code writes.
  expect(await db.prepare('SELECT max(id) AS id FROM audit_log').first('id')).toBe(11);
  await expect(db.prepare("INSERT INTO audit_log (action, entity) VALUES ('shred', 'ticket')").run()).rejects.toThrow(/CHECK/);
  const indexes = (await db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'audit_log' ORDER BY name").all<{ name: string }>()).results;
  expect(indexes.map((i) => i.name)).toEqual(['audit_log_actor', 'audit_log_at', 'audit_log_entity']);
});
