-- Requesters (docs/architecture.md#mail): mail from a company's own domains opens a ticket for that
-- company, kept with the person who wrote (the requester) rather than a reporter; their replies
-- are comments with no author among the staff; a staff comment may be sent to them by mail.

-- The rebuild below drops and renames a table; foreign keys are checked at the commit (as in 0003).
PRAGMA defer_foreign_keys = true;

-- A company's mail domains, as the API gives them (a JSON array of lower-case names).
ALTER TABLE companies ADD COLUMN email_domains TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(email_domains) AND json_type(email_domains) = 'array');

-- The same domains one per row, kept by triggers in the statement that writes the company: the
-- primary key refuses a domain a second company claims, even when two saves race. Derived, like
-- the search indexes: backups leave it out and a restore fills it as companies go back in.
CREATE TABLE company_email_domains (
  domain TEXT NOT NULL PRIMARY KEY COLLATE NOCASE,
  company_id INTEGER NOT NULL REFERENCES companies (id)
);
CREATE INDEX company_email_domains_company ON company_email_domains (company_id);
CREATE TRIGGER company_email_domains_insert AFTER INSERT ON companies BEGIN
  INSERT INTO company_email_domains (domain, company_id) SELECT value, new.id FROM json_each(new.email_domains);
END;
CREATE TRIGGER company_email_domains_update AFTER UPDATE OF email_domains ON companies BEGIN
  DELETE FROM company_email_domains WHERE company_id = new.id;
  INSERT INTO company_email_domains (domain, company_id) SELECT value, new.id FROM json_each(new.email_domains);
END;
CREATE TRIGGER company_email_domains_delete BEFORE DELETE ON companies BEGIN
  DELETE FROM company_email_domains WHERE company_id = old.id;
END;

ALTER TABLE tickets ADD COLUMN requester_email TEXT;
ALTER TABLE tickets ADD COLUMN requester_name TEXT;

-- A requester's comment has no user, so user_id becomes nullable: SQLite needs the table rebuilt.
-- Every comment keeps its id (the full-text index's rowid); nothing references the table.
CREATE TABLE ticket_comments_0031 (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  ticket_id INTEGER NOT NULL REFERENCES tickets (id),
  user_id INTEGER REFERENCES users (id),
  body TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  version INTEGER NOT NULL DEFAULT 1,
  -- The requester's address on a comment that came from them; a staff comment has its user instead.
  external_email TEXT,
  -- A staff comment mailed to the ticket's requester; every other staff comment is internal.
  sent_to_requester INTEGER NOT NULL DEFAULT 0 CHECK (sent_to_requester IN (0, 1)),
  CHECK ((user_id IS NULL) <> (external_email IS NULL)),
  CHECK (sent_to_requester = 0 OR user_id IS NOT NULL)
);
INSERT INTO ticket_comments_0031 (id, ticket_id, user_id, body, created_at, updated_at, version)
  SELECT id, ticket_id, user_id, body, created_at, updated_at, version FROM ticket_comments ORDER BY id;
-- Ids are never reused (migration 0003): a deleted newest comment's id stays taken, by a row made
-- and removed here so the new table's sequence starts where the old one ended.
INSERT INTO ticket_comments_0031 (id, ticket_id, body, external_email)
  SELECT seq, coalesce((SELECT min(id) FROM tickets), 0), '', 'sequence@invalid' FROM sqlite_sequence
  WHERE name = 'ticket_comments' AND seq > (SELECT coalesce(max(id), 0) FROM ticket_comments);
DELETE FROM ticket_comments_0031 WHERE external_email = 'sequence@invalid';
DROP TABLE ticket_comments;
ALTER TABLE ticket_comments_0031 RENAME TO ticket_comments;
CREATE INDEX ticket_comments_ticket ON ticket_comments (ticket_id, created_at);
CREATE TRIGGER ticket_comments_fts_insert AFTER INSERT ON ticket_comments BEGIN
  INSERT INTO ticket_comments_fts (rowid, body) VALUES (new.id, new.body);
END;
CREATE TRIGGER ticket_comments_fts_update AFTER UPDATE OF id, body ON ticket_comments BEGIN
  INSERT INTO ticket_comments_fts (ticket_comments_fts, rowid, body) VALUES ('delete', old.id, old.body);
  INSERT INTO ticket_comments_fts (rowid, body) VALUES (new.id, new.body);
END;
CREATE TRIGGER ticket_comments_fts_delete AFTER DELETE ON ticket_comments BEGIN
  INSERT INTO ticket_comments_fts (ticket_comments_fts, rowid, body) VALUES ('delete', old.id, old.body);
END;

-- A requester's mail may carry files: an attachment's uploader becomes nullable the same way.
CREATE TABLE attachments_0031 (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  ticket_id INTEGER NOT NULL REFERENCES tickets (id),
  comment_id INTEGER,
  key TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  bytes INTEGER NOT NULL CHECK (bytes > 0),
  content_type TEXT NOT NULL,
  sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
  user_id INTEGER REFERENCES users (id),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
INSERT INTO attachments_0031 (id, ticket_id, comment_id, key, name, bytes, content_type, sha256, user_id, created_at)
  SELECT id, ticket_id, comment_id, key, name, bytes, content_type, sha256, user_id, created_at FROM attachments ORDER BY id;
INSERT INTO attachments_0031 (id, ticket_id, key, name, bytes, content_type, sha256)
  SELECT seq, coalesce((SELECT min(id) FROM tickets), 0), 'sequence@invalid', '', 1, '', printf('%064d', 0) FROM sqlite_sequence
  WHERE name = 'attachments' AND seq > (SELECT coalesce(max(id), 0) FROM attachments);
DELETE FROM attachments_0031 WHERE key = 'sequence@invalid';
DROP TABLE attachments;
ALTER TABLE attachments_0031 RENAME TO attachments;
CREATE INDEX attachments_ticket ON attachments (ticket_id, created_at);
