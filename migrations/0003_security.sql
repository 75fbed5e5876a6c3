-- Security pass (docs/decisions.md#the-security-review).
--
-- 1. Ids are never reused: every table is rebuilt with AUTOINCREMENT, so a deleted record's id
--    (and a deleted user's old tokens) can never point at a new row. SQLite cannot add
--    AUTOINCREMENT to an existing table, so every table is copied into a new one with the same
--    columns, CHECKs, defaults, UNIQUE/COLLATE and foreign keys, keeping every id, and its
--    indexes are made again. Copying explicit ids also sets sqlite_sequence to the highest one.
--    D1 runs a migration in one transaction with foreign keys on and cannot turn them off, so
--    the new tables are made side by side, filled parents first, the old ones dropped children
--    first, and the new ones renamed into place; foreign keys are deferred to the commit.
-- 2. Companies and ticket categories get name_key, the look-alike-proof form of the name
--    (nameKey in src/shared/schemas/text.ts: NFKC, invisible characters removed, Cyrillic and
--    Greek look-alikes of Latin letters folded, case-folded, white space collapsed). The
--    provider sets it in the same INSERT or UPDATE as the name and a UNIQUE index refuses a
--    second one, so two concurrent creates cannot both pass. Rows from before this migration
--    get the nearest key SQL can compute (exact for plain ASCII names); a later edit of the
--    name stores the exact key. A clash among the approximations keeps the row and makes its
--    key unique with the row id rather than failing the migration.
-- 3. revoked_tokens for sign-out, and an index that lets old login_attempts windows be pruned.
PRAGMA defer_foreign_keys = true;

-- The new tables point at each other (users_new, …), not at the old ones, so dropping an old table
-- leaves no row pointing at a missing parent; the renames at the end rewrite those references.
CREATE TABLE users_new (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  first_name TEXT NOT NULL,
  surname TEXT NOT NULL,
  email TEXT NOT NULL COLLATE NOCASE UNIQUE,
  password_hash TEXT NOT NULL,
  is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE companies_new (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL COLLATE NOCASE UNIQUE,
  code TEXT NOT NULL DEFAULT '',
  email TEXT NOT NULL DEFAULT '',
  phone TEXT NOT NULL DEFAULT '',
  address TEXT NOT NULL DEFAULT '',
  is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  name_key TEXT
);

CREATE TABLE ticket_categories_new (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL COLLATE NOCASE UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  name_key TEXT
);

CREATE TABLE tickets_new (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  title TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'in_progress', 'on_hold', 'resolved', 'closed')),
  priority TEXT NOT NULL DEFAULT 'normal' CHECK (priority IN ('low', 'normal', 'high', 'urgent')),
  company_id INTEGER REFERENCES companies_new (id),
  category_id INTEGER REFERENCES ticket_categories_new (id),
  assignee_id INTEGER REFERENCES users_new (id),
  reporter_id INTEGER REFERENCES users_new (id),
  due_at TEXT,
  resolved_at TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE ticket_comments_new (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  ticket_id INTEGER NOT NULL REFERENCES tickets_new (id),
  user_id INTEGER NOT NULL REFERENCES users_new (id),
  body TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE time_entries_new (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  ticket_id INTEGER NOT NULL REFERENCES tickets_new (id),
  user_id INTEGER NOT NULL REFERENCES users_new (id),
  work_date TEXT NOT NULL,
  minutes INTEGER NOT NULL CHECK (minutes > 0),
  note TEXT NOT NULL DEFAULT '',
  billable INTEGER NOT NULL DEFAULT 1 CHECK (billable IN (0, 1)),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE statements_new (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  company_id INTEGER REFERENCES companies_new (id),
  period TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'issued', 'paid')),
  issued_at TEXT,
  total_cents INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE invoice_lines_new (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  source TEXT NOT NULL CHECK (source IN ('autofi', '3dtracking', 'gifs-sla', 'gifs-azure')),
  company_id INTEGER REFERENCES companies_new (id),
  period TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  quantity INTEGER NOT NULL DEFAULT 1,
  unit_price_cents INTEGER NOT NULL DEFAULT 0,
  amount_cents INTEGER NOT NULL DEFAULT 0,
  reference TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'approved', 'invoiced')),
  statement_id INTEGER REFERENCES statements_new (id),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Parents before children.
INSERT INTO users_new (id, first_name, surname, email, password_hash, is_active, created_at, updated_at)
  SELECT id, first_name, surname, email, password_hash, is_active, created_at, updated_at FROM users;
INSERT INTO companies_new (id, name, code, email, phone, address, is_active, created_at, updated_at, name_key)
  SELECT id, name, code, email, phone, address, is_active, created_at, updated_at,
    lower(trim(replace(replace(replace(replace(replace(name, char(160), ' '), char(9), ' '), '    ', ' '), '  ', ' '), '  ', ' ')))
  FROM companies;
UPDATE companies_new SET name_key = name_key || char(31) || id
  WHERE id NOT IN (SELECT min(id) FROM companies_new GROUP BY name_key);
INSERT INTO ticket_categories_new (id, name, description, is_active, created_at, updated_at, name_key)
  SELECT id, name, description, is_active, created_at, updated_at,
    lower(trim(replace(replace(replace(replace(replace(name, char(160), ' '), char(9), ' '), '    ', ' '), '  ', ' '), '  ', ' ')))
  FROM ticket_categories;
UPDATE ticket_categories_new SET name_key = name_key || char(31) || id
  WHERE id NOT IN (SELECT min(id) FROM ticket_categories_new GROUP BY name_key);
INSERT INTO tickets_new (id, title, description, status, priority, company_id, category_id, assignee_id, reporter_id, due_at, resolved_at, created_at, updated_at)
  SELECT id, title, description, status, priority, company_id, category_id, assignee_id, reporter_id, due_at, resolved_at, created_at, updated_at FROM tickets;
INSERT INTO ticket_comments_new (id, ticket_id, user_id, body, created_at, updated_at)
  SELECT id, ticket_id, user_id, body, created_at, updated_at FROM ticket_comments;
INSERT INTO time_entries_new (id, ticket_id, user_id, work_date, minutes, note, billable, created_at, updated_at)
  SELECT id, ticket_id, user_id, work_date, minutes, note, billable, created_at, updated_at FROM time_entries;
INSERT INTO statements_new (id, company_id, period, status, issued_at, total_cents, created_at, updated_at)
  SELECT id, company_id, period, status, issued_at, total_cents, created_at, updated_at FROM statements;
INSERT INTO invoice_lines_new (id, source, company_id, period, description, quantity, unit_price_cents, amount_cents, reference, status, statement_id, created_at, updated_at)
  SELECT id, source, company_id, period, description, quantity, unit_price_cents, amount_cents, reference, status, statement_id, created_at, updated_at FROM invoice_lines;

-- Children before parents, so no old row is left pointing at a dropped one.
DROP TABLE invoice_lines;
DROP TABLE statements;
DROP TABLE time_entries;
DROP TABLE ticket_comments;
DROP TABLE tickets;
DROP TABLE ticket_categories;
DROP TABLE companies;
DROP TABLE users;

ALTER TABLE users_new RENAME TO users;
ALTER TABLE companies_new RENAME TO companies;
ALTER TABLE ticket_categories_new RENAME TO ticket_categories;
ALTER TABLE tickets_new RENAME TO tickets;
ALTER TABLE ticket_comments_new RENAME TO ticket_comments;
ALTER TABLE time_entries_new RENAME TO time_entries;
ALTER TABLE statements_new RENAME TO statements;
ALTER TABLE invoice_lines_new RENAME TO invoice_lines;

CREATE INDEX users_name ON users (surname COLLATE NOCASE, first_name COLLATE NOCASE);

CREATE UNIQUE INDEX companies_name_key ON companies (name_key);

CREATE UNIQUE INDEX ticket_categories_name_key ON ticket_categories (name_key);

CREATE INDEX tickets_status_created ON tickets (status, created_at);
CREATE INDEX tickets_priority_created ON tickets (priority, created_at);
CREATE INDEX tickets_company_created ON tickets (company_id, created_at);
CREATE INDEX tickets_category_created ON tickets (category_id, created_at);
CREATE INDEX tickets_assignee_status ON tickets (assignee_id, status, created_at);
CREATE INDEX tickets_created ON tickets (created_at);
CREATE INDEX tickets_updated ON tickets (updated_at);
CREATE INDEX tickets_due ON tickets (due_at);
CREATE INDEX tickets_resolved ON tickets (resolved_at);
-- From 0002; the CASE expressions must stay identical to SORT_SQL in src/worker/provider/db/tickets.ts.
CREATE INDEX tickets_status ON tickets (status);
CREATE INDEX tickets_status_updated ON tickets (status, updated_at);
CREATE INDEX tickets_status_due ON tickets (status, due_at);
CREATE INDEX tickets_status_priority ON tickets (status, (CASE priority WHEN 'low' THEN 0 WHEN 'normal' THEN 1 WHEN 'high' THEN 2 ELSE 3 END));
CREATE INDEX tickets_priority_rank ON tickets ((CASE priority WHEN 'low' THEN 0 WHEN 'normal' THEN 1 WHEN 'high' THEN 2 ELSE 3 END));
CREATE INDEX tickets_status_rank ON tickets ((CASE status WHEN 'open' THEN 0 WHEN 'in_progress' THEN 1 WHEN 'on_hold' THEN 2 WHEN 'resolved' THEN 3 ELSE 4 END));
CREATE INDEX tickets_title ON tickets (title COLLATE NOCASE);
CREATE INDEX tickets_status_title ON tickets (status, title COLLATE NOCASE);

CREATE INDEX ticket_comments_ticket ON ticket_comments (ticket_id, created_at);

CREATE INDEX time_entries_ticket ON time_entries (ticket_id, work_date);
CREATE INDEX time_entries_date_user ON time_entries (work_date, user_id, minutes, billable);
CREATE INDEX time_entries_user_date ON time_entries (user_id, work_date);

CREATE UNIQUE INDEX statements_period ON statements (period);

CREATE INDEX invoice_lines_source_period ON invoice_lines (source, period, status);
CREATE INDEX invoice_lines_company ON invoice_lines (company_id);
CREATE INDEX invoice_lines_statement ON invoice_lines (statement_id);

-- A signed-out token, by its id (jti), kept until the token would have expired anyway; rows past
-- expires_at (Unix seconds) are deleted whenever a new one is written.
CREATE TABLE revoked_tokens (
  jti TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL
);
CREATE INDEX revoked_tokens_expires ON revoked_tokens (expires_at);

-- Windows older than the longest one are deleted on each sign-in attempt.
CREATE INDEX login_attempts_window ON login_attempts (window_start);
