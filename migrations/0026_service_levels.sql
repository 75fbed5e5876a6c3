-- Service levels, part one: the calendars business time is counted in and the policies that give a
-- ticket its targets (docs/api.md#service-levels). hours and holidays are JSON arrays as the API
-- sends them; no hours means around the clock. name_key is the look-alike-proof name, UNIQUE as
-- on companies.
CREATE TABLE calendars (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
  name_key TEXT NOT NULL UNIQUE,
  time_zone TEXT NOT NULL CHECK (length(time_zone) BETWEEN 1 AND 64),
  hours TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(hours) AND json_type(hours) = 'array'),
  holidays TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(holidays) AND json_type(holidays) = 'array'),
  version INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- A ticket gets the first policy by position whose set fields (company, category, priority) all
-- match it; a field left NULL matches every ticket.
CREATE TABLE sla_policies (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
  name_key TEXT NOT NULL UNIQUE,
  position INTEGER NOT NULL CHECK (position BETWEEN 1 AND 1000),
  company_id INTEGER REFERENCES companies (id),
  category_id INTEGER REFERENCES ticket_categories (id),
  priority TEXT CHECK (priority IS NULL OR priority IN ('low', 'normal', 'high', 'urgent')),
  calendar_id INTEGER NOT NULL REFERENCES calendars (id),
  first_response_minutes INTEGER NOT NULL CHECK (first_response_minutes BETWEEN 1 AND 525600),
  resolution_minutes INTEGER NOT NULL CHECK (resolution_minutes BETWEEN first_response_minutes AND 525600),
  version INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX sla_policies_position ON sla_policies (position, id);
CREATE INDEX sla_policies_calendar ON sla_policies (calendar_id);
CREATE INDEX sla_policies_company ON sla_policies (company_id) WHERE company_id IS NOT NULL;
CREATE INDEX sla_policies_category ON sla_policies (category_id) WHERE category_id IS NOT NULL;

-- The audit log gains the entities `calendar` and `sla_policy`: the same rebuild as 0023, keeping its lists whole.
CREATE TABLE audit_log_0026 (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  actor_id INTEGER REFERENCES users (id),
  action TEXT NOT NULL CHECK (action IN ('create', 'update', 'delete', 'comment', 'time', 'password', 'login', 'login_failed', 'backup',
    'comment_edit', 'comment_delete', 'time_edit', 'time_delete', 'import', 'attach', 'detach',
    'submit', 'approve', 'reject', 'reopen', 'passkey_add', 'passkey_remove', 'token_add', 'token_remove')),
  entity TEXT NOT NULL CHECK (entity IN ('user', 'ticket', 'company', 'ticket_category', 'invoice_line', 'statement', 'backup', 'session', 'import',
    'timesheet', 'webhook', 'calendar', 'sla_policy')),
  entity_id INTEGER,
  changes TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(changes)),
  request_id TEXT
);
INSERT INTO audit_log_0026 (id, at, actor_id, action, entity, entity_id, changes, request_id)
  SELECT id, at, actor_id, action, entity, entity_id, changes, request_id FROM audit_log ORDER BY id;
DROP TABLE audit_log;
ALTER TABLE audit_log_0026 RENAME TO audit_log;
CREATE INDEX audit_log_entity ON audit_log (entity, entity_id, at);
CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX audit_log_actor ON audit_log (actor_id, at);
