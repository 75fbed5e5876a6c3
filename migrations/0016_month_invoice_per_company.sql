-- A closed Autofi or 3D Tracking month bills each company on an invoice of its own
-- (README "Billing rules"): a company's month is invoiced once, so at most one
-- invoice that is not void per ledger, month and company, held by the index itself. Invoices made
-- before this, billing several companies at once, keep company_id NULL; NULLs never collide in a
-- unique index, and the close treats such an invoice as holding the whole month.
DROP INDEX IF EXISTS statements_ledger_month_closed;
CREATE UNIQUE INDEX statements_ledger_month_company_closed ON statements (ledger, period, company_id) WHERE ledger <> 'gifs' AND status <> 'void';

-- Every billed line names its company in the copy, as it does live. No foreign key, like line_id:
-- the copy is a document and never holds a company back from anything the live rows allow.
ALTER TABLE statement_lines ADD COLUMN company_id INTEGER;

-- The copies taken so far: the statement's company, which is every line's on a GIFS statement;
-- on an invoice that billed several companies, the live line's (a line never changes company).
UPDATE statement_lines SET company_id = coalesce(
    (SELECT s.company_id FROM statements s WHERE s.id = statement_lines.statement_id),
    (SELECT l.company_id FROM invoice_lines l WHERE l.id = statement_lines.line_id))
  WHERE company_id IS NULL;
