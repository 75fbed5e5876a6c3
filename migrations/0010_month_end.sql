-- Billing month end (docs: README "Billing rules"). An issued statement is a document: the
-- lines it billed are copied here when it is issued, and the statement shows and prints that copy
-- from then on, whatever later happens to the live lines. `line_id` names the live line the row
-- was copied from; it is no foreign key, so a copy never holds a line back from anything.
CREATE TABLE statement_lines (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  statement_id INTEGER NOT NULL REFERENCES statements (id),
  line_id INTEGER NOT NULL,
  source TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  quantity INTEGER NOT NULL DEFAULT 0,
  unit_price_cents INTEGER NOT NULL DEFAULT 0,
  amount_cents INTEGER NOT NULL DEFAULT 0,
  reference TEXT NOT NULL DEFAULT '',
  UNIQUE (statement_id, line_id)
);
CREATE INDEX statement_lines_line ON statement_lines (line_id);

-- Backups read the copy page by page under the backup lock, like every billing table (0006).
CREATE TRIGGER backup_lock_statement_lines_insert BEFORE INSERT ON statement_lines
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;
CREATE TRIGGER backup_lock_statement_lines_update BEFORE UPDATE ON statement_lines
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;
CREATE TRIGGER backup_lock_statement_lines_delete BEFORE DELETE ON statement_lines
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;

-- Issued and paid statements: their lines are still on them and frozen, so the copy is exact.
INSERT INTO statement_lines (statement_id, line_id, source, description, quantity, unit_price_cents, amount_cents, reference)
  SELECT l.statement_id, l.id, l.source, l.description, l.quantity, l.unit_price_cents, l.amount_cents, l.reference
  FROM invoice_lines l JOIN statements s ON s.id = l.statement_id
  WHERE s.status IN ('issued', 'paid')
  ORDER BY l.statement_id, l.source, l.id;

-- Void statements let go of their lines, and the audit log never recorded which lines a statement
-- held (a statement's entries hold its period, company, status and reason; a line's entries hold
-- its own fields, not its statement). What is left is the void's own mark: it stamped every line
-- it returned with the statement's voided_at. A line still carrying that stamp, of the statement's
-- period, company and GIFS sources, has not changed since, so it is copied back as it was billed.
-- Lines edited or billed again after the void lost the stamp and cannot be placed (README).
INSERT INTO statement_lines (statement_id, line_id, source, description, quantity, unit_price_cents, amount_cents, reference)
  SELECT s.id, l.id, l.source, l.description, l.quantity, l.unit_price_cents, l.amount_cents, l.reference
  FROM statements s JOIN invoice_lines l
    ON l.updated_at = s.voided_at AND l.period = s.period AND l.source IN ('gifs-sla', 'gifs-azure')
    AND l.company_id IS s.company_id AND l.status = 'approved' AND l.statement_id IS NULL
  WHERE s.status = 'void'
  ORDER BY s.id, l.source, l.id;

-- A billed statement's total is the sum of its copy (the void set it to 0).
UPDATE statements SET total_cents = (SELECT coalesce(sum(amount_cents), 0) FROM statement_lines WHERE statement_id = statements.id)
  WHERE status IN ('issued', 'paid', 'void');

-- Payments received against issued statements. A statement is paid when they reach its total;
-- that a payment never exceeds the balance is part of the INSERT that records it.
CREATE TABLE statement_payments (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  statement_id INTEGER NOT NULL REFERENCES statements (id),
  paid_on TEXT NOT NULL,
  amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
  method TEXT NOT NULL CHECK (method IN ('bank', 'card', 'cash', 'other')),
  reference TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX statement_payments_statement ON statement_payments (statement_id);

CREATE TRIGGER backup_lock_statement_payments_insert BEFORE INSERT ON statement_payments
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;
CREATE TRIGGER backup_lock_statement_payments_update BEFORE UPDATE ON statement_payments
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;
CREATE TRIGGER backup_lock_statement_payments_delete BEFORE DELETE ON statement_payments
  WHEN EXISTS (SELECT 1 FROM backup_lock WHERE expires_at > unixepoch())
  BEGIN SELECT RAISE(ABORT, 'backup in progress'); END;

-- Statements marked paid before payments existed were paid in one go: one payment of the total,
-- dated the day they were marked (their last change), method unknown.
INSERT INTO statement_payments (statement_id, paid_on, amount_cents, method, reference)
  SELECT id, date(updated_at), total_cents, 'other', 'Marked paid before payments were recorded'
  FROM statements WHERE status = 'paid' AND total_cents > 0
  ORDER BY id;

-- Autofi and 3D Tracking bill a closed month as one invoice, kept in statements with the same
-- document rules (copy, print, void, payments). `ledger` says whose document it is; numbers count
-- per ledger and month (GIFS-2026-10-1, AUTOFI-2026-10-1), and a ledger's month closes once: at
-- most one invoice that is not void, held by the index itself.
ALTER TABLE statements ADD COLUMN ledger TEXT NOT NULL DEFAULT 'gifs' CHECK (ledger IN ('gifs', 'autofi', '3dtracking'));
DROP INDEX statements_period_sequence;
CREATE UNIQUE INDEX statements_ledger_period_sequence ON statements (ledger, period, sequence);
CREATE UNIQUE INDEX statements_ledger_month_closed ON statements (ledger, period) WHERE ledger <> 'gifs' AND status <> 'void';
