-- The whole data model of docs/architecture.md#data. Money is integer cents; timestamps are ISO 8601 UTC text.
CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  first_name TEXT NOT NULL,
  surname TEXT NOT NULL,
  email TEXT NOT NULL COLLATE NOCASE UNIQUE,
  password_hash TEXT NOT NULL,
  is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX users_name ON users (surname COLLATE NOCASE, first_name COLLATE NOCASE);

CREATE TABLE companies (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL COLLATE NOCASE UNIQUE,
  code TEXT NOT NULL DEFAULT '',
  email TEXT NOT NULL DEFAULT '',
  phone TEXT NOT NULL DEFAULT '',
  address TEXT NOT NULL DEFAULT '',
  is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE ticket_categories (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL COLLATE NOCASE UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE tickets (
  id INTEGER PRIMARY KEY,
  title TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'in_progress', 'on_hold', 'resolved', 'closed')),
  priority TEXT NOT NULL DEFAULT 'normal' CHECK (priority IN ('low', 'normal', 'high', 'urgent')),
  company_id INTEGER REFERENCES companies (id),
  category_id INTEGER REFERENCES ticket_categories (id),
  assignee_id INTEGER REFERENCES users (id),
  reporter_id INTEGER REFERENCES users (id),
  due_at TEXT,
  resolved_at TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX tickets_status_created ON tickets (status, created_at);
CREATE INDEX tickets_priority_created ON tickets (priority, created_at);
CREATE INDEX tickets_company_created ON tickets (company_id, created_at);
CREATE INDEX tickets_category_created ON tickets (category_id, created_at);
CREATE INDEX tickets_assignee_status ON tickets (assignee_id, status, created_at);
CREATE INDEX tickets_created ON tickets (created_at);
CREATE INDEX tickets_updated ON tickets (updated_at);
CREATE INDEX tickets_due ON tickets (due_at);
CREATE INDEX tickets_resolved ON tickets (resolved_at);

CREATE TABLE ticket_comments (
  id INTEGER PRIMARY KEY,
  ticket_id INTEGER NOT NULL REFERENCES tickets (id),
  user_id INTEGER NOT NULL REFERENCES users (id),
  body TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX ticket_comments_ticket ON ticket_comments (ticket_id, created_at);

CREATE TABLE time_entries (
  id INTEGER PRIMARY KEY,
  ticket_id INTEGER NOT NULL REFERENCES tickets (id),
  user_id INTEGER NOT NULL REFERENCES users (id),
  work_date TEXT NOT NULL,
  minutes INTEGER NOT NULL CHECK (minutes > 0),
  note TEXT NOT NULL DEFAULT '',
  billable INTEGER NOT NULL DEFAULT 1 CHECK (billable IN (0, 1)),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX time_entries_ticket ON time_entries (ticket_id, work_date);
CREATE INDEX time_entries_date_user ON time_entries (work_date, user_id, minutes, billable);
CREATE INDEX time_entries_user_date ON time_entries (user_id, work_date);

CREATE TABLE statements (
  id INTEGER PRIMARY KEY,
  company_id INTEGER REFERENCES companies (id),
  period TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'issued', 'paid')),
  issued_at TEXT,
  total_cents INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE UNIQUE INDEX statements_period ON statements (period);

CREATE TABLE invoice_lines (
  id INTEGER PRIMARY KEY,
  source TEXT NOT NULL CHECK (source IN ('autofi', '3dtracking', 'gifs-sla', 'gifs-azure')),
  company_id INTEGER REFERENCES companies (id),
  period TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  quantity INTEGER NOT NULL DEFAULT 1,
  unit_price_cents INTEGER NOT NULL DEFAULT 0,
  amount_cents INTEGER NOT NULL DEFAULT 0,
  reference TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'approved', 'invoiced')),
  statement_id INTEGER REFERENCES statements (id),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX invoice_lines_source_period ON invoice_lines (source, period, status);
CREATE INDEX invoice_lines_company ON invoice_lines (company_id);
CREATE INDEX invoice_lines_statement ON invoice_lines (statement_id);

CREATE TABLE login_attempts (
  key TEXT PRIMARY KEY,
  window_start INTEGER NOT NULL,
  count INTEGER NOT NULL
);
