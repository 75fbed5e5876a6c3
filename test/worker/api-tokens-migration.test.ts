import { applyD1Migrations, env } from 'cloudflare:test';
import { expect, it } from 'vitest';

// MIGRATION_DB starts empty in this file, so it can hold the schema as it was before 0022 and
// data written then: 0022 rebuilds the audit log to widen its action CHECK for API tokens.
const before = env.TEST_MIGRATIONS.filter((m) => m.name < '0022');
const rest = env.TEST_MIGRATIONS.filter((m) => m.name >= '0022');
const db = env.MIGRATION_DB;

it('0022 keeps every audit entry, takes the token actions, and holds API tokens to their rules', async () => {
  await applyD1Migrations(db, before);
  await db.batch([
    db.prepare("INSERT INTO users (id, first_name, surname, email, password_hash) VALUES (1, 'Ada', 'Admin', 'ada@example.com', 'x')"),
    db.prepare(
      `INSERT INTO audit_log (id, at, actor_id, action, entity, entity_id, changes, request_id) VALUES
        (7, '2026-01-02T10:00:00.000Z', 1, 'passkey_add', 'user', 1, '{"passkey":[null,"Laptop"]}', 'req-1'),
        (9, '2026-01-03T10:00:00.000Z', NULL, 'login_failed', 'session', NULL, '{}', NULL)`,
    ),
  ]);
  const entries = 'SELECT id, at, actor_id, action, entity, entity_id, changes, request_id FROM audit_log ORDER BY id';
  const kept = (await db.prepare(entries).all()).results;
  await expect(db.prepare("INSERT INTO audit_log (action, entity) VALUES ('token_add', 'user')").run()).rejects.toThrow(/CHECK/);

  await applyD1Migrations(db, rest);

  expect((await db.prepare(entries).all()).results).toEqual(kept);
  const hash = 'a'.repeat(64);
  await db.batch([
    db.prepare("INSERT INTO api_tokens (user_id, name, access, token_hash, session_version, expires_at) VALUES (1, 'CI', 'read', ?1, 0, '2027-01-01T00:00:00.000Z')").bind(hash),
    db.prepare("INSERT INTO audit_log (actor_id, action, entity, entity_id) VALUES (1, 'token_add', 'user', 1), (1, 'token_remove', 'user', 1), (1, 'passkey_remove', 'user', 1)"),
  ]);
  expect(await db.prepare('SELECT max(id) AS id FROM audit_log').first('id')).toBe(12);
  const insert = (name: string, access: string, tokenHash: string) =>
    db.prepare("INSERT INTO api_tokens (user_id, name, access, token_hash, session_version, expires_at) VALUES (1, ?1, ?2, ?3, 0, '2027-01-01T00:00:00.000Z')").bind(name, access, tokenHash).run();
  await expect(insert('Same hash', 'write', hash)).rejects.toThrow(/UNIQUE/);
  await expect(insert('Admin', 'admin', 'b'.repeat(64))).rejects.toThrow(/CHECK/);
  await expect(insert('', 'read', 'c'.repeat(64))).rejects.toThrow(/CHECK/);
  await expect(insert('Short hash', 'read', 'abc')).rejects.toThrow(/CHECK/);
  await expect(db.prepare("INSERT INTO audit_log (action, entity) VALUES ('shred', 'user')").run()).rejects.toThrow(/CHECK/);
});
