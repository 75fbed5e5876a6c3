-- Passkeys (docs/api.md#passkeys, docs/operations.md#passkeys): WebAuthn credentials a person
-- signs in with instead of a password. A person may have several; each is theirs alone.
CREATE TABLE passkeys (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users (id),
  -- The authenticator's credential id, base64url: how a sign-in names its passkey.
  credential_id TEXT NOT NULL UNIQUE CHECK (length(credential_id) BETWEEN 1 AND 1400),
  -- The credential's public key as SubjectPublicKeyInfo (what WebCrypto imports), base64url: text,
  -- so backups carry it as it is. `algorithm` is its COSE algorithm: ES256 (-7) or RS256 (-257).
  public_key TEXT NOT NULL,
  algorithm INTEGER NOT NULL CHECK (algorithm IN (-7, -257)),
  -- The signature counter last seen; a sign-in must raise it unless the authenticator keeps none (0).
  sign_count INTEGER NOT NULL DEFAULT 0 CHECK (sign_count >= 0),
  name TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  last_used_at TEXT,
  -- What the browser said the authenticator speaks (usb, internal, hybrid, …), offered back as
  -- hints when the person adds another passkey.
  transports TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(transports))
);
CREATE INDEX passkeys_user ON passkeys (user_id, id);

-- Challenges handed out with creation and request options: each is used once (the write that
-- uses it deletes it), lives 5 minutes, and says what it is for. A registration's is bound to the
-- signed-in person; a sign-in's belongs to nobody until an authenticator answers it.
CREATE TABLE passkey_challenges (
  challenge TEXT PRIMARY KEY,
  purpose TEXT NOT NULL CHECK (purpose IN ('register', 'login')),
  user_id INTEGER REFERENCES users (id),
  -- Unix seconds.
  expires_at INTEGER NOT NULL,
  CHECK ((purpose = 'register') = (user_id IS NOT NULL))
) WITHOUT ROWID;
CREATE INDEX passkey_challenges_expiry ON passkey_challenges (expires_at);

-- The audit log's action list is a CHECK constraint, which only a rebuild changes (as in 0018).
CREATE TABLE audit_log_0021 (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  actor_id INTEGER REFERENCES users (id),
  action TEXT NOT NULL CHECK (action IN ('create', 'update', 'delete', 'comment', 'time', 'password', 'login', 'login_failed', 'backup',
    'comment_edit', 'comment_delete', 'time_edit', 'time_delete', 'import', 'attach', 'detach',
    'submit', 'approve', 'reject', 'reopen', 'passkey_add', 'passkey_remove')),
  entity TEXT NOT NULL CHECK (entity IN ('user', 'ticket', 'company', 'ticket_category', 'invoice_line', 'statement', 'backup', 'session', 'import',
    'timesheet')),
  entity_id INTEGER,
  changes TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(changes)),
  request_id TEXT
);
INSERT INTO audit_log_0021 (id, at, actor_id, action, entity, entity_id, changes, request_id)
  SELECT id, at, actor_id, action, entity, entity_id, changes, request_id FROM audit_log ORDER BY id;
DROP TABLE audit_log;
ALTER TABLE audit_log_0021 RENAME TO audit_log;
CREATE INDEX audit_log_entity ON audit_log (entity, entity_id, at);
CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX audit_log_actor ON audit_log (actor_id, at);
