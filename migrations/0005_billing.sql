-- Statements of docs/architecture.md#billing-lines-and-statements: a period may have several statements (the first and then
-- supplementary ones, numbered by `sequence`), and an issued statement can be voided with a reason.
-- The status CHECK can only change by rebuilding the table. invoice_lines references statements,
-- and D1 refuses to commit a DROP of a table that lines still point at even with
-- `PRAGMA defer_foreign_keys = true` (the dropped rows stay counted as violations after the
-- rebuilt table takes the name), so the lines let go of their statements during the rebuild and
-- take them back afterwards.
CREATE TABLE billing_line_statements AS SELECT id, statement_id FROM invoice_lines WHERE statement_id IS NOT NULL;
UPDATE invoice_lines SET statement_id = NULL WHERE statement_id IS NOT NULL;

CREATE TABLE statements_billing (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  company_id INTEGER REFERENCES companies (id),
  period TEXT NOT NULL,
  sequence INTEGER NOT NULL DEFAULT 1 CHECK (sequence > 0),
  status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'issued', 'paid', 'void')),
  issued_at TEXT,
  voided_at TEXT,
  void_reason TEXT,
  total_cents INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  -- Only an open statement has no issue date; exactly the void ones carry a reason and a time.
  CHECK ((status = 'open') = (issued_at IS NULL)),
  CHECK ((status = 'void') = (void_reason IS NOT NULL AND voided_at IS NOT NULL))
);

INSERT INTO statements_billing (id, company_id, period, sequence, status, issued_at, total_cents, created_at, updated_at)
  SELECT id, company_id, period, 1, status, CASE WHEN status = 'open' THEN NULL ELSE coalesce(issued_at, updated_at) END, total_cents, created_at, updated_at
  FROM statements;

DROP TABLE statements;
ALTER TABLE statements_billing RENAME TO statements;

UPDATE invoice_lines SET statement_id = (SELECT b.statement_id FROM billing_line_statements b WHERE b.id = invoice_lines.id)
  WHERE id IN (SELECT id FROM billing_line_statements);
DROP TABLE billing_line_statements;

-- Replaces statements_period (one statement per month), which made later lines unbillable.
CREATE UNIQUE INDEX statements_period_sequence ON statements (period, sequence);
CREATE INDEX statements_company ON statements (company_id);

-- Line status follows its statement: invoiced exactly while on an issued or paid statement.
-- Older data marked lines invoiced when a statement was generated, or with no statement at all.
UPDATE invoice_lines SET status = 'approved'
  WHERE status = 'invoiced' AND (statement_id IS NULL OR statement_id IN (SELECT id FROM statements WHERE status = 'open'));
UPDATE invoice_lines SET status = 'invoiced'
  WHERE status <> 'invoiced' AND statement_id IN (SELECT id FROM statements WHERE status IN ('issued', 'paid'));
UPDATE invoice_lines SET status = 'approved'
  WHERE status = 'draft' AND statement_id IS NOT NULL;
UPDATE statements SET total_cents = (SELECT coalesce(sum(amount_cents), 0) FROM invoice_lines WHERE statement_id = statements.id);
