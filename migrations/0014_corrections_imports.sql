-- Corrections and ledger imports (README "Corrections" and "Ledger imports").
--
-- Comments and time entries can now be edited, so they count their changes like every other
-- editable record (docs/architecture.md#record-versions).
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

-- The batch a line was imported in; no foreign key, like statement_lines.line_id, so nothing
-- about a batch ever holds a line back.
ALTER TABLE invoice_lines ADD COLUMN import_batch_id INTEGER;
CREATE INDEX invoice_lines_import_batch ON invoice_lines (import_batch_id) WHERE import_batch_id IS NOT NULL;
-- An import skips rows whose reference the ledger already holds for that month.
CREATE INDEX invoice_lines_source_reference ON invoice_lines (source, period, reference) WHERE reference <> '';

-- The audit log already takes the actions and entity of corrections and imports: 0013 rebuilt it
-- with the whole list.
