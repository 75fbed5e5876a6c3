import { applyD1Migrations, env } from 'cloudflare:test';
import { expect, it } from 'vitest';

// MIGRATION_DB starts empty in this file, so it can hold the schema as it was before 0018 and
// data written then: 0018 rebuilds the audit log and the notifications to widen their CHECK lists
// for timesheets.
const before = env.TEST_MIGRATIONS.filter((m) => m.name < '0018');
const rest = env.TEST_MIGRATIONS.filter((m) => m.name >= '0018');
const db = env.MIGRATION_DB;

it('0018 keeps every audit entry and notification as they were, and takes the timesheet actions and kinds', async () => {
  await applyD1Migrations(db, before);
  await db.batch([
    db.prepare("INSERT INTO users (id, first_name, surname, email, password_hash) VALUES (1, 'Ada', 'Admin', 'ada@example.com', 'x'), (2, 'Sam', 'Staff', 'sam@example.com', 'x')"),
    db.prepare("INSERT INTO tickets (id, title, reporter_id) VALUES (1, 'Old ticket', 1)"),
    db.prepare(
      `INSERT INTO audit_log (id, at, actor_id, action, entity, entity_id, changes, request_id) VALUES
        (7, '2026-01-02T10:00:00.000Z', 1, 'time', 'ticket', 1, '{"minutes":[null,450]}', 'req-1'),
        (9, '2026-01-03T10:00:00.000Z', NULL, 'login_failed', 'session', NULL, '{}', NULL)`,
    ),
    db.prepare(
      `INSERT INTO notifications (id, user_id, kind, entity, entity_id, actor_id, title, at, read_at, request_id) VALUES
        (3, 2, 'assigned', 'ticket', 1, 1, 'Old ticket', '2026-01-02T10:00:00.000Z', NULL, 'req-1'),
        (4, 2, 'status', 'ticket', 1, 1, 'Old ticket', '2026-01-02T11:00:00.000Z', '2026-01-02T12:00:00.000Z', NULL)`,
    ),
  ]);
  const entries = 'SELECT id, at, actor_id, action, entity, entity_id, changes, request_id FROM audit_log ORDER BY id';
  const notices = 'SELECT id, user_id, kind, entity, entity_id, actor_id, title, at, read_at, request_id FROM notifications ORDER BY id';
  const kept = { entries: (await db.prepare(entries).all()).results, notices: (await db.prepare(notices).all()).results };

  await applyD1Migrations(db, rest);

  expect((await db.prepare(entries).all()).results).toEqual(kept.entries);
  expect((await db.prepare(notices).all()).results).toEqual(kept.notices);
  await db.batch([
    db.prepare("INSERT INTO timesheet_weeks (user_id, week, state) VALUES (2, '2026-W47', 'submitted')"),
    db.prepare("INSERT INTO audit_log (actor_id, action, entity, entity_id) VALUES (2, 'submit', 'timesheet', 1), (1, 'approve', 'timesheet', 1)"),
    db.prepare("INSERT INTO notifications (user_id, kind, entity, entity_id, actor_id, title) VALUES (2, 'timesheet_approved', 'timesheet', 1, 1, '2026-W47')"),
  ]);
  expect(await db.prepare('SELECT max(id) AS id FROM audit_log').first('id')).toBe(11);
  expect(await db.prepare('SELECT max(id) AS id FROM notifications').first('id')).toBe(5);
  // The CHECKs still refuse what no code writes, and a notice to its own actor.
  await expect(db.prepare("INSERT INTO audit_log (action, entity) VALUES ('shred', 'timesheet')").run()).rejects.toThrow(/CHECK/);
  await expect(db.prepare("INSERT INTO notifications (user_id, kind, entity, entity_id, title) VALUES (2, 'shred', 'timesheet', 1, 'x')").run()).rejects.toThrow(/CHECK/);
  await expect(db.prepare("INSERT INTO notifications (user_id, kind, entity, entity_id, actor_id, title) VALUES (2, 'timesheet_rejected', 'timesheet', 1, 2, 'x')").run()).rejects.toThrow(/CHECK/);
  await expect(db.prepare("INSERT INTO timesheet_weeks (user_id, week, state) VALUES (2, '2026-W47', 'open')").run()).rejects.toThrow(/UNIQUE/);
  await expect(db.prepare("INSERT INTO timesheet_weeks (user_id, week, state) VALUES (2, '2026-W48', 'closed')").run()).rejects.toThrow(/CHECK/);
  const indexes = async (table: string) =>
    (await db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?1 AND name NOT LIKE 'sqlite_%' ORDER BY name").bind(table).all<{ name: string }>()).results.map((i) => i.name);
  expect(await indexes('audit_log')).toEqual(['audit_log_actor', 'audit_log_at', 'audit_log_entity']);
  expect(await indexes('notifications')).toEqual(['notifications_request', 'notifications_unread', 'notifications_user']);
});
