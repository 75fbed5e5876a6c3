-- A backup reads each table in pages (src/worker/provider/db/backup.ts), which are not one
-- transaction. While it runs it holds a lease row here, and the triggers below refuse every write
-- to the tables it pages through, so all its pages see one state of the data. The provider
-- answers such a refused write with 503 and Retry-After. A lease lasts a minute and a running
-- backup renews it with every page, so a backup that crashed frees the database by itself.
CREATE TABLE backup_lock (
  token TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL -- unix seconds
);

-- Three triggers per locked table, named backup_lock_<table>_<insert|update|delete>; the table
-- list is BACKUP_MODE in src/worker/provider/db/tables.ts, and test/worker/backup-lock.test.ts
-- fails while a locked table lacks one. A migration that rebuilds a table drops its triggers and
-- must create them again. login_attempts has none: sign-ins keep working during a backup.

CREATE TRIGGER backup_lock_users_insert BEFORE INSERT ON users
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;
CREATE TRIGGER backup_lock_users_update BEFORE UPDATE ON users
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;
CREATE TRIGGER backup_lock_users_delete BEFORE DELETE ON users
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;

CREATE TRIGGER backup_lock_companies_insert BEFORE INSERT ON companies
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;
CREATE TRIGGER backup_lock_companies_update BEFORE UPDATE ON companies
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;
CREATE TRIGGER backup_lock_companies_delete BEFORE DELETE ON companies
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;

CREATE TRIGGER backup_lock_ticket_categories_insert BEFORE INSERT ON ticket_categories
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;
CREATE TRIGGER backup_lock_ticket_categories_update BEFORE UPDATE ON ticket_categories
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;
CREATE TRIGGER backup_lock_ticket_categories_delete BEFORE DELETE ON ticket_categories
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;

CREATE TRIGGER backup_lock_tickets_insert BEFORE INSERT ON tickets
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;
CREATE TRIGGER backup_lock_tickets_update BEFORE UPDATE ON tickets
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;
CREATE TRIGGER backup_lock_tickets_delete BEFORE DELETE ON tickets
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;

CREATE TRIGGER backup_lock_ticket_comments_insert BEFORE INSERT ON ticket_comments
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;
CREATE TRIGGER backup_lock_ticket_comments_update BEFORE UPDATE ON ticket_comments
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;
CREATE TRIGGER backup_lock_ticket_comments_delete BEFORE DELETE ON ticket_comments
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;

CREATE TRIGGER backup_lock_time_entries_insert BEFORE INSERT ON time_entries
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;
CREATE TRIGGER backup_lock_time_entries_update BEFORE UPDATE ON time_entries
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;
CREATE TRIGGER backup_lock_time_entries_delete BEFORE DELETE ON time_entries
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;

CREATE TRIGGER backup_lock_statements_insert BEFORE INSERT ON statements
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;
CREATE TRIGGER backup_lock_statements_update BEFORE UPDATE ON statements
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;
CREATE TRIGGER backup_lock_statements_delete BEFORE DELETE ON statements
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;

CREATE TRIGGER backup_lock_invoice_lines_insert BEFORE INSERT ON invoice_lines
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;
CREATE TRIGGER backup_lock_invoice_lines_update BEFORE UPDATE ON invoice_lines
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;
CREATE TRIGGER backup_lock_invoice_lines_delete BEFORE DELETE ON invoice_lines
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;
