-- Record versions for conflict detection (docs/architecture.md#record-versions). Every editable record counts its
-- changes: each UPDATE that changes a row sets version = version + 1 in the same statement, GET
-- answers it as the ETag, and a PATCH carrying If-Match names the version it was edited from, so
-- the UPDATE's WHERE refuses a save made over someone else's (412).
--
-- Added with ALTER TABLE, not a table rebuild: a rebuild would drop the backup-lock triggers of
-- 0006 and the full-text triggers of 0007. Existing rows, and rows restored from a backup taken
-- before this migration (which has no version column), start at 1.
ALTER TABLE users ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE companies ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE ticket_categories ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE tickets ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE statements ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE invoice_lines ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
