-- Full-text search over tickets (docs/architecture.md#search-and-list-views): one row per ticket, its rowid the ticket's id,
-- with the title, the description and the text of all its comments. Triggers keep it in step
-- with every insert, edit and delete, so no write path has to remember it. A later migration that
-- rebuilds `tickets` or `ticket_comments` drops these triggers with the table and must add them
-- again. Prefix indexes keep "rout*" as quick as a whole word.
CREATE VIRTUAL TABLE tickets_fts USING fts5 (
  title,
  body,
  comments,
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '2 3'
);

INSERT INTO tickets_fts (rowid, title, body, comments)
SELECT t.id, t.title, t.description, coalesce((SELECT group_concat(c.body, char(10)) FROM ticket_comments c WHERE c.ticket_id = t.id), '')
FROM tickets t;

CREATE TRIGGER tickets_fts_insert AFTER INSERT ON tickets BEGIN
  INSERT INTO tickets_fts (rowid, title, body, comments) VALUES (new.id, new.title, new.description, '');
END;

CREATE TRIGGER tickets_fts_update AFTER UPDATE OF title, description ON tickets BEGIN
  UPDATE tickets_fts SET title = new.title, body = new.description WHERE rowid = new.id;
END;

CREATE TRIGGER tickets_fts_delete AFTER DELETE ON tickets BEGIN
  DELETE FROM tickets_fts WHERE rowid = old.id;
END;

CREATE TRIGGER ticket_comments_fts_insert AFTER INSERT ON ticket_comments BEGIN
  UPDATE tickets_fts
  SET comments = coalesce((SELECT group_concat(c.body, char(10)) FROM ticket_comments c WHERE c.ticket_id = new.ticket_id), '')
  WHERE rowid = new.ticket_id;
END;

CREATE TRIGGER ticket_comments_fts_update AFTER UPDATE OF body, ticket_id ON ticket_comments BEGIN
  UPDATE tickets_fts
  SET comments = coalesce((SELECT group_concat(c.body, char(10)) FROM ticket_comments c WHERE c.ticket_id = tickets_fts.rowid), '')
  WHERE rowid IN (old.ticket_id, new.ticket_id);
END;

CREATE TRIGGER ticket_comments_fts_delete AFTER DELETE ON ticket_comments BEGIN
  UPDATE tickets_fts
  SET comments = coalesce((SELECT group_concat(c.body, char(10)) FROM ticket_comments c WHERE c.ticket_id = old.ticket_id), '')
  WHERE rowid = old.ticket_id;
END;

-- Prefix matches for the search palette (docs/architecture.md#search-and-list-views) read these indexes.
CREATE INDEX users_first_name ON users (first_name COLLATE NOCASE);
CREATE INDEX companies_code ON companies (code COLLATE NOCASE);
CREATE INDEX invoice_lines_reference ON invoice_lines (reference COLLATE NOCASE);
