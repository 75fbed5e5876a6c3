import { applyD1Migrations, env } from 'cloudflare:test';
import { expect, it } from 'vitest';

// MIGRATION_DB starts empty in this file, so it can hold the schema as it was before 0021 and
// data written then: 0021 rebuilds the audit log to widen its action CHECK for passkeys.
const before = env.TEST_MIGRATIONS.filter((m) => m.name < '0021');
const rest = env.TEST_MIGRATIONS.filter((m) => m.name >= '0021');
const db = env.MIGRATION_DB;

it('0021 keeps every audit entry as it was, takes the passkey actions, and holds passkeys and challenges to their rules', async () => {
  await applyD1Migrations(db, before);
  await db.batch([
    db.prepare("INSERT INTO users (id, first_name, surname, email, password_hash) VALUES (1, 'Ada', 'Admin', 'ada@example.com', 'x'), (2, 'Sam', 'Staff', 'sam@example.com', 'x')"),
    db.prepare(
      `INSERT INTO audit_log (id, at, actor_id, action, entity, entity_id, changes, request_id) VALUES
        (7, '2026-01-02T10:00:00.000Z', 1, 'approve', 'timesheet', 1, '{}', 'req-1'),
        (9, '2026-01-03T10:00:00.000Z', NULL, 'login_failed', 'session', NULL, '{"email":[null,"x@example.com"]}', NULL)`,
    ),
  ]);
  const entries = 'SELECT id, at, actor_id, action, entity, entity_id, changes, request_id FROM audit_log ORDER BY id';
  const kept = (await db.prepare(entries).all()).results;
  await expect(db.prepare("INSERT INTO audit_log (action, entity) VALUES ('passkey_add', 'user')").run()).rejects.toThrow(/CHECK/);

  await applyD1Migrations(db, rest);

  expect((await db.prepare(entries).all()).results).toEqual(kept);
  await db.batch([
    db.prepare("INSERT INTO passkeys (user_id, credential_id, public_key, algorithm, name) VALUES (2, 'AAAA', 'BBBB', -7, 'Laptop')"),
    db.prepare("INSERT INTO audit_log (actor_id, action, entity, entity_id) VALUES (2, 'passkey_add', 'user', 2), (2, 'passkey_remove', 'user', 2)"),
  ]);
  expect(await db.prepare('SELECT max(id) AS id FROM audit_log').first('id')).toBe(11);
  expect(await db.prepare('SELECT sign_count, transports, last_used_at FROM passkeys').first()).toEqual({ sign_count: 0, transports: '[]', last_used_at: null });
  // The CHECKs still refuse what no code writes.
  await expect(db.prepare("INSERT INTO audit_log (action, entity) VALUES ('shred', 'user')").run()).rejects.toThrow(/CHECK/);
  await expect(db.prepare("INSERT INTO passkeys (user_id, credential_id, public_key, algorithm, name) VALUES (1, 'AAAA', 'CCCC', -7, 'Same credential')").run()).rejects.toThrow(/UNIQUE/);
  await expect(db.prepare("INSERT INTO passkeys (user_id, credential_id, public_key, algorithm, name) VALUES (1, 'DDDD', 'CCCC', -8, 'EdDSA')").run()).rejects.toThrow(/CHECK/);
  await expect(db.prepare("INSERT INTO passkey_challenges (challenge, purpose, user_id, expires_at) VALUES ('c1', 'register', NULL, 1)").run()).rejects.toThrow(/CHECK/);
  await expect(db.prepare("INSERT INTO passkey_challenges (challenge, purpose, user_id, expires_at) VALUES ('c2', 'login', 1, 1)").run()).rejects.toThrow(/CHECK/);
  await expect(db.prepare("INSERT INTO passkey_challenges (challenge, purpose, user_id, expires_at) VALUES ('c3', 'reset', NULL, 1)").run()).rejects.toThrow(/CHECK/);
  const indexes = async (table: string) =>
    (await db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?1 AND name NOT LIKE 'sqlite_%' ORDER BY name").bind(table).all<{ name: string }>()).results.map((i) => i.name);
  expect(await indexes('audit_log')).toEqual(['audit_log_actor', 'audit_log_at', 'audit_log_entity']);
  expect(await indexes('passkeys')).toEqual(['passkeys_user']);
});
