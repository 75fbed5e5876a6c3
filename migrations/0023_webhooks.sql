-- Signed webhooks (docs/api.md#webhooks). A hook's events are a JSON array of event names; its
-- secret is kept as shown once (`whsec_…`) because signing needs it, not a hash of it.
CREATE TABLE webhooks (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  url TEXT NOT NULL CHECK (length(url) BETWEEN 1 AND 2000),
  events TEXT NOT NULL CHECK (json_valid(events) AND json_type(events) = 'array'),
  active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  secret TEXT NOT NULL CHECK (secret LIKE 'whsec_%'),
  consecutive_failures INTEGER NOT NULL DEFAULT 0 CHECK (consecutive_failures >= 0),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- The outbox: a row per event per matching hook, written in the batch of the change it reports,
-- so a change and its deliveries commit together. id is the `webhook-id` the receiver sees.
CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  webhook_id INTEGER NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  event TEXT NOT NULL,
  payload TEXT NOT NULL CHECK (json_valid(payload)),
  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  attempt INTEGER NOT NULL DEFAULT 0 CHECK (attempt >= 0),
  status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'delivered', 'failed')),
  response_status INTEGER,
  response_ms INTEGER,
  error TEXT,
  next_at TEXT,
  request_id TEXT
) WITHOUT ROWID;
CREATE INDEX webhook_deliveries_hook ON webhook_deliveries (webhook_id, at);
CREATE INDEX webhook_deliveries_request ON webhook_deliveries (request_id) WHERE request_id IS NOT NULL;

-- The audit log gains the entity `webhook`: the same rebuild as 0022, keeping its lists whole.
CREATE TABLE audit_log_0023 (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  actor_id INTEGER REFERENCES users (id),
  action TEXT NOT NULL CHECK (action IN ('create', 'update', 'delete', 'comment', 'time', 'password', 'login', 'login_failed', 'backup',
    'comment_edit', 'comment_delete', 'time_edit', 'time_delete', 'import', 'attach', 'detach',
    'submit', 'approve', 'reject', 'reopen', 'passkey_add', 'passkey_remove', 'token_add', 'token_remove')),
  entity TEXT NOT NULL CHECK (entity IN ('user', 'ticket', 'company', 'ticket_category', 'invoice_line', 'statement', 'backup', 'session', 'import',
    'timesheet', 'webhook')),
  entity_id INTEGER,
  changes TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(changes)),
  request_id TEXT
);
INSERT INTO audit_log_0023 (id, at, actor_id, action, entity, entity_id, changes, request_id)
  SELECT id, at, actor_id, action, entity, entity_id, changes, request_id FROM audit_log ORDER BY id;
DROP TABLE audit_log;
ALTER TABLE audit_log_0023 RENAME TO audit_log;
CREATE INDEX audit_log_entity ON audit_log (entity, entity_id, at);
CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX audit_log_actor ON audit_log (actor_id, at);

-- A hook turned off after 20 failures in a row tells the admins: a new notification kind.
CREATE TABLE notifications_0023 (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  kind TEXT NOT NULL CHECK (kind IN ('assigned', 'mentioned', 'commented', 'status', 'timesheet_approved', 'timesheet_rejected', 'webhook_disabled')),
  entity TEXT NOT NULL,
  entity_id INTEGER NOT NULL,
  actor_id INTEGER REFERENCES users(id),
  title TEXT NOT NULL,
  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  read_at TEXT,
  request_id TEXT,
  comment_id INTEGER,
  CHECK (actor_id IS NULL OR actor_id <> user_id)
);
INSERT INTO notifications_0023 (id, user_id, kind, entity, entity_id, actor_id, title, at, read_at, request_id, comment_id)
  SELECT id, user_id, kind, entity, entity_id, actor_id, title, at, read_at, request_id, comment_id FROM notifications ORDER BY id;
DROP TABLE notifications;
ALTER TABLE notifications_0023 RENAME TO notifications;
CREATE INDEX notifications_user ON notifications (user_id, id);
CREATE INDEX notifications_unread ON notifications (user_id) WHERE read_at IS NULL;
CREATE INDEX notifications_request ON notifications (request_id) WHERE request_id IS NOT NULL;
