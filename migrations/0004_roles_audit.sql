-- Roles and the audit log (docs/architecture.md#roles-and-the-audit-log).
-- Every existing account starts as staff; the role CHECK keeps unknown roles out of the table.
ALTER TABLE users ADD COLUMN role TEXT NOT NULL DEFAULT 'staff' CHECK (role IN ('admin', 'billing', 'staff'));
-- Bumped by deactivation, a role change and a password change or reset; a token carries the
-- version it was issued at and is refused once the two differ, even within the same second.
ALTER TABLE users ADD COLUMN session_version INTEGER NOT NULL DEFAULT 0;

-- A deployed database has no admin yet: its earliest-created active account (the first admin
-- created by hand, or the seeded demo admin) becomes one, so someone can still manage users.
UPDATE users SET role = 'admin'
WHERE id = (SELECT id FROM users WHERE is_active = 1 ORDER BY created_at, id LIMIT 1)
  AND NOT EXISTS (SELECT 1 FROM users WHERE role = 'admin');

-- One row per successful write and per sign-in attempt, written in the same D1 batch as the
-- change it records. AUTOINCREMENT: an id is never reused, even after the newest rows are gone.
CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  actor_id INTEGER REFERENCES users (id),
  action TEXT NOT NULL CHECK (action IN ('create', 'update', 'delete', 'comment', 'time', 'password', 'login', 'login_failed', 'backup')),
  entity TEXT NOT NULL CHECK (entity IN ('user', 'ticket', 'company', 'ticket_category', 'invoice_line', 'statement', 'backup', 'session')),
  entity_id INTEGER,
  changes TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(changes)),
  request_id TEXT
);
-- A record's history (every drawer's History section), and the whole log newest first.
CREATE INDEX audit_log_entity ON audit_log (entity, entity_id, at);
CREATE INDEX audit_log_at ON audit_log (at);
-- The audit page's filter by person.
CREATE INDEX audit_log_actor ON audit_log (actor_id, at);
