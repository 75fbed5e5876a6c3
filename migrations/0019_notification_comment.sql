-- The comment a notification is about (docs/architecture.md#notifications-watchers-and-mentions):
-- the bell opens the ticket at it. Null for notices of a ticket's own change. No foreign key: a
-- comment deleted later leaves its notice, which then opens the ticket at its top.
ALTER TABLE notifications ADD COLUMN comment_id INTEGER;
