-- Comments get a full-text index of their own, one row per comment (docs/architecture.md#search-and-list-views).
--
-- Migration 0007 kept the text of all of a ticket's comments in one value of tickets_fts and
-- built it again on every comment: each comment cost more than the one before, and past about
-- 2 MB of comments (D1's largest value) every comment and every title or description edit on that
-- ticket failed. Now tickets_fts holds the title and description only, and ticket_comments_fts
-- one row per comment whose rowid is the comment's id. It reads the text from ticket_comments
-- itself (external content), so comments are not stored twice; only these triggers may change
-- it, and each gives the index the row's old text to take out. A search finds a ticket by its own
-- words or by the words of one of its comments (src/worker/provider/db/ticket-hits.ts).
--
-- A later migration that rebuilds `tickets` or `ticket_comments` drops these triggers with the
-- table and must add them again, keeping the comments' ids.

DROP TRIGGER ticket_comments_fts_insert;
DROP TRIGGER ticket_comments_fts_update;
DROP TRIGGER ticket_comments_fts_delete;
DROP TRIGGER tickets_fts_insert;
DROP TRIGGER tickets_fts_update;
DROP TRIGGER tickets_fts_delete;
DROP TABLE tickets_fts;

CREATE VIRTUAL TABLE tickets_fts USING fts5 (
  title,
  body,
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '2 3'
);

INSERT INTO tickets_fts (rowid, title, body) SELECT id, title, description FROM tickets;

CREATE TRIGGER tickets_fts_insert AFTER INSERT ON tickets BEGIN
  INSERT INTO tickets_fts (rowid, title, body) VALUES (new.id, new.title, new.description);
END;

CREATE TRIGGER tickets_fts_update AFTER UPDATE OF title, description ON tickets BEGIN
  UPDATE tickets_fts SET title = new.title, body = new.description WHERE rowid = new.id;
END;

CREATE TRIGGER tickets_fts_delete AFTER DELETE ON tickets BEGIN
  DELETE FROM tickets_fts WHERE rowid = old.id;
END;

-- The same tokenizer and prefixes as tickets_fts, so a query reads the same in both.
CREATE VIRTUAL TABLE ticket_comments_fts USING fts5 (
  body,
  content = 'ticket_comments',
  content_rowid = 'id',
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '2 3'
);

INSERT INTO ticket_comments_fts (ticket_comments_fts) VALUES ('rebuild');

CREATE TRIGGER ticket_comments_fts_insert AFTER INSERT ON ticket_comments BEGIN
  INSERT INTO ticket_comments_fts (rowid, body) VALUES (new.id, new.body);
END;

-- The index holds no ticket_id (a search reads it from ticket_comments), so moving a comment to
-- another ticket changes nothing here.
CREATE TRIGGER ticket_comments_fts_update AFTER UPDATE OF id, body ON ticket_comments BEGIN
  INSERT INTO ticket_comments_fts (ticket_comments_fts, rowid, body) VALUES ('delete', old.id, old.body);
  INSERT INTO ticket_comments_fts (rowid, body) VALUES (new.id, new.body);
END;

CREATE TRIGGER ticket_comments_fts_delete AFTER DELETE ON ticket_comments BEGIN
  INSERT INTO ticket_comments_fts (ticket_comments_fts, rowid, body) VALUES ('delete', old.id, old.body);
END;
