-- Timesheets that close (README "Timesheets", docs/architecture.md#timesheets): one row per
-- person and ISO week (`2026-W47`) once the week has left `open`. A week with no row is open.
-- Time in a submitted or approved week is locked: the time-entry writes read this table inside
-- their own statement (src/worker/provider/db/timesheets/lock.ts).
CREATE TABLE timesheet_weeks (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users (id),
  week TEXT NOT NULL CHECK (week GLOB '[0-9][0-9][0-9][0-9]-W[0-5][0-9]'),
  state TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'submitted', 'approved', 'rejected')),
  submitted_at TEXT,
  decided_by INTEGER REFERENCES users (id),
  decided_at TEXT,
  -- Why an approver sent the week back; kept until the next decision.
  reason TEXT NOT NULL DEFAULT '',
  UNIQUE (user_id, week)
);
-- Approvers' list: the weeks waiting, by week.
CREATE INDEX timesheet_weeks_week ON timesheet_weeks (week, state);

-- The audit log's action and entity lists are CHECK constraints, which only a rebuild changes.
CREATE TABLE audit_log_0018 (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  actor_id INTEGER REFERENCES users (id),
  action TEXT NOT NULL CHECK (action IN ('create', 'update', 'delete', 'comment', 'time', 'password', 'login', 'login_failed', 'backup',
    'comment_edit', 'comment_delete', 'time_edit', 'time_delete', 'import', 'attach', 'detach',
    'submit', 'approve', 'reject', 'reopen')),
  entity TEXT NOT NULL CHECK (entity IN ('user', 'ticket', 'company', 'ticket_category', 'invoice_line', 'statement', 'backup', 'session', 'import',
    'timesheet')),
  entity_id INTEGER,
  changes TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(changes)),
  request_id TEXT
);
INSERT INTO audit_log_0018 (id, at, actor_id, action, entity, entity_id, changes, request_id)
  SELECT id, at, actor_id, action, entity, entity_id, changes, request_id FROM audit_log ORDER BY id;
DROP TABLE audit_log;
ALTER TABLE audit_log_0018 RENAME TO audit_log;
CREATE INDEX audit_log_entity ON audit_log (entity, entity_id, at);
CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX audit_log_actor ON audit_log (actor_id, at);

-- Notification kinds are a CHECK as well: the same rebuild, keeping every row and index.
CREATE TABLE notifications_0018 (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  kind TEXT NOT NULL CHECK (kind IN ('assigned', 'mentioned', 'commented', 'status', 'timesheet_approved', 'timesheet_rejected')),
  entity TEXT NOT NULL,
  entity_id INTEGER NOT NULL,
  actor_id INTEGER REFERENCES users(id),
  title TEXT NOT NULL,
  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  read_at TEXT,
  request_id TEXT,
  CHECK (actor_id IS NULL OR actor_id <> user_id)
);
INSERT INTO notifications_0018 (id, user_id, kind, entity, entity_id, actor_id, title, at, read_at, request_id)
  SELECT id, user_id, kind, entity, entity_id, actor_id, title, at, read_at, request_id FROM notifications ORDER BY id;
DROP TABLE notifications;
ALTER TABLE notifications_0018 RENAME TO notifications;
CREATE INDEX notifications_user ON notifications (user_id, id);
CREATE INDEX notifications_unread ON notifications (user_id) WHERE read_at IS NULL;
CREATE INDEX notifications_request ON notifications (request_id) WHERE request_id IS NOT NULL;
