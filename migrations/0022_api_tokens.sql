-- Personal API tokens (docs/api.md#api-tokens): what a script or another system presents as
-- `Authorization: Bearer sat_…` to act as the person who made it, with that person's role.
CREATE TABLE api_tokens (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users (id),
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  -- `read` tokens may only GET and HEAD.
  access TEXT NOT NULL CHECK (access IN ('read', 'write')),
  -- SHA-256 of the whole token, lowercase hex: the token itself is shown once and never stored.
  token_hash TEXT NOT NULL UNIQUE CHECK (length(token_hash) = 64),
  -- The person's session version when the token was made. Deactivation, a role change and a new
  -- password raise theirs (docs/api.md#sign-in), so the lookup, which requires the two
  -- to be equal, refuses every token made before: no write elsewhere has to know tokens exist.
  session_version INTEGER NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  expires_at TEXT NOT NULL,
  -- To the minute: a request writes it only when the minute has changed.
  last_used_at TEXT
);
CREATE INDEX api_tokens_user ON api_tokens (user_id, id);

-- The audit log's action list is a CHECK constraint, which only a rebuild changes (as in 0021,
-- whose list this keeps whole).
CREATE TABLE audit_log_0022 (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  actor_id INTEGER REFERENCES users (id),
  action TEXT NOT NULL CHECK (action IN ('create', 'update', 'delete', 'comment', 'time', 'password', 'login', 'login_failed', 'backup',
    'comment_edit', 'comment_delete', 'time_edit', 'time_delete', 'import', 'attach', 'detach',
    'submit', 'approve', 'reject', 'reopen', 'passkey_add', 'passkey_remove', 'token_add', 'token_remove')),
  entity TEXT NOT NULL CHECK (entity IN ('user', 'ticket', 'company', 'ticket_category', 'invoice_line', 'statement', 'backup', 'session', 'import',
    'timesheet')),
  entity_id INTEGER,
  changes TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(changes)),
  request_id TEXT
);
INSERT INTO audit_log_0022 (id, at, actor_id, action, entity, entity_id, changes, request_id)
  SELECT id, at, actor_id, action, entity, entity_id, changes, request_id FROM audit_log ORDER BY id;
DROP TABLE audit_log;
ALTER TABLE audit_log_0022 RENAME TO audit_log;
CREATE INDEX audit_log_entity ON audit_log (entity, entity_id, at);
CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX audit_log_actor ON audit_log (actor_id, at);
