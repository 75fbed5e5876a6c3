-- A backup now copies the data tables in one transaction and reads the copies at leisure, over as
-- many invocations of the Worker as the data needs (src/worker/provider/db/backup.ts), so writes
-- no longer wait for the whole backup: the write lock of 0006 and its triggers go. The
-- backup_lock table stays, empty, so a trigger some other migration made against it still runs.
DROP TRIGGER IF EXISTS backup_lock_companies_delete;
DROP TRIGGER IF EXISTS backup_lock_companies_insert;
DROP TRIGGER IF EXISTS backup_lock_companies_update;
DROP TRIGGER IF EXISTS backup_lock_invoice_lines_delete;
DROP TRIGGER IF EXISTS backup_lock_invoice_lines_insert;
DROP TRIGGER IF EXISTS backup_lock_invoice_lines_update;
DROP TRIGGER IF EXISTS backup_lock_statement_lines_delete;
DROP TRIGGER IF EXISTS backup_lock_statement_lines_insert;
DROP TRIGGER IF EXISTS backup_lock_statement_lines_update;
DROP TRIGGER IF EXISTS backup_lock_statement_payments_delete;
DROP TRIGGER IF EXISTS backup_lock_statement_payments_insert;
DROP TRIGGER IF EXISTS backup_lock_statement_payments_update;
DROP TRIGGER IF EXISTS backup_lock_statements_delete;
DROP TRIGGER IF EXISTS backup_lock_statements_insert;
DROP TRIGGER IF EXISTS backup_lock_statements_update;
DROP TRIGGER IF EXISTS backup_lock_ticket_categories_delete;
DROP TRIGGER IF EXISTS backup_lock_ticket_categories_insert;
DROP TRIGGER IF EXISTS backup_lock_ticket_categories_update;
DROP TRIGGER IF EXISTS backup_lock_ticket_comments_delete;
DROP TRIGGER IF EXISTS backup_lock_ticket_comments_insert;
DROP TRIGGER IF EXISTS backup_lock_ticket_comments_update;
DROP TRIGGER IF EXISTS backup_lock_tickets_delete;
DROP TRIGGER IF EXISTS backup_lock_tickets_insert;
DROP TRIGGER IF EXISTS backup_lock_tickets_update;
DROP TRIGGER IF EXISTS backup_lock_time_entries_delete;
DROP TRIGGER IF EXISTS backup_lock_time_entries_insert;
DROP TRIGGER IF EXISTS backup_lock_time_entries_update;
DROP TRIGGER IF EXISTS backup_lock_users_delete;
DROP TRIGGER IF EXISTS backup_lock_users_insert;
DROP TRIGGER IF EXISTS backup_lock_users_update;

-- One row per backup: where it has got to, so the next invocation takes up from there. A step
-- holds the lease while it works; one that died lets the next step in once the lease lapses.
CREATE TABLE backup_runs (
  id TEXT PRIMARY KEY, -- names the run's copy tables: backup_copy_<id>_<table>
  key TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'done', 'failed')),
  state TEXT NOT NULL DEFAULT '{}', -- JSON, src/worker/provider/db/backup-run.ts
  lease_until INTEGER NOT NULL DEFAULT 0, -- unix seconds
  steps INTEGER NOT NULL DEFAULT 0,
  attempts INTEGER NOT NULL DEFAULT 0, -- steps taken since the place was last saved: a run that keeps dying is given up
  max_step_queries INTEGER NOT NULL DEFAULT 0,
  copy_ms INTEGER, -- how long the copying transaction kept writes waiting
  started_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  finished_at TEXT,
  error TEXT
);
CREATE INDEX backup_runs_status ON backup_runs (status, started_at);
