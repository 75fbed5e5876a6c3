-- Corrections and ledger imports (README "Corrections" and "Ledger imports").
--
-- Comments and time entries can now be edited, so they count their changes like every other
-- editable record (docs/architecture.md#record-versions). ALTER, not a rebuild, keeps the
-- backup-lock triggers of 0006.
ALTER TABLE ticket_comments ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE time_entries ADD COLUMN version INTEGER NOT NULL DEFAULT 1;

-- One row per CSV import into a ledger. An undone import keeps its row (undone_at set) so the
-- list of past imports still shows it; its lines are gone.
CREATE TABLE import_batches (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  source TEXT NOT NULL CHECK (source IN ('autofi', '3dtracking', 'gifs-sla', 'gifs-azure')),
  file_name TEXT NOT NULL DEFAULT '',
  rows INTEGER NOT NULL DEFAULT 0,
  created INTEGER NOT NULL DEFAULT 0,
  duplicates INTEGER NOT NULL DEFAULT 0,
  user_id INTEGER REFERENCES users (id),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  undone_at TEXT
);
CREATE INDEX import_batches_source ON import_batches (source, created_at);

CREATE TRIGGER backup_lock_import_batches_insert BEFORE INSERT ON import_batches
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;
CREATE TRIGGER backup_lock_import_batches_update BEFORE UPDATE ON import_batches
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;
CREATE TRIGGER backup_lock_import_batches_delete BEFORE DELETE ON import_batches
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;

-- The batch a line was imported in; no foreign key, like statement_lines.line_id, so nothing
-- about a batch ever holds a line back.
ALTER TABLE invoice_lines ADD COLUMN import_batch_id INTEGER;
CREATE INDEX invoice_lines_import_batch ON invoice_lines (import_batch_id) WHERE import_batch_id IS NOT NULL;
-- An import skips rows whose reference the ledger already holds for that month.
CREATE INDEX invoice_lines_source_reference ON invoice_lines (source, period, reference) WHERE reference <> '';

-- The audit log's action and entity lists are CHECK constraints, which only a rebuild changes.
-- The new actions: comment and time corrections, imports, attachments. The log has no triggers
-- (its backup mode is `capped`) and nothing references it.
CREATE TABLE audit_log_0014 (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  actor_id INTEGER REFERENCES users (id),
  action TEXT NOT NULL CHECK (action IN ('create', 'update', 'delete', 'comment', 'time', 'password', 'login', 'login_failed', 'backup',
    'comment_edit', 'comment_delete', 'time_edit', 'time_delete', 'import', 'attach', 'detach')),
  entity TEXT NOT NULL CHECK (entity IN ('user', 'ticket', 'company', 'ticket_category', 'invoice_line', 'statement', 'backup', 'session', 'import')),
  entity_id INTEGER,
  changes TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(changes)),
  request_id TEXT
);
INSERT INTO audit_log_0014 (id, at, actor_id, action, entity, entity_id, changes, request_id)
  SELECT id, at, actor_id, action, entity, entity_id, changes, request_id FROM audit_log ORDER BY id;
DROP TABLE audit_log;
ALTER TABLE audit_log_0014 RENAME TO audit_log;
CREATE INDEX audit_log_entity ON audit_log (entity, entity_id, at);
CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX audit_log_actor ON audit_log (actor_id, at);
