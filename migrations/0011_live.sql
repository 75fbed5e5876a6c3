-- Notifications and watchers (docs/architecture.md#notifications-watchers-and-mentions). Both are
-- written in the same batch as the change that causes them. request_id ties a notification to the
-- request that wrote it, so the live channel can pass on exactly that request's notifications.
CREATE TABLE notifications (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  kind TEXT NOT NULL CHECK (kind IN ('assigned', 'mentioned', 'commented', 'status')),
  entity TEXT NOT NULL,
  entity_id INTEGER NOT NULL,
  actor_id INTEGER REFERENCES users(id),
  title TEXT NOT NULL,
  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  read_at TEXT,
  request_id TEXT,
  -- Never to the actor: the rule is the table's, not only the writer's.
  CHECK (actor_id IS NULL OR actor_id <> user_id)
);
-- The bell: one person's newest first, and their unread count.
CREATE INDEX notifications_user ON notifications (user_id, id);
CREATE INDEX notifications_unread ON notifications (user_id) WHERE read_at IS NULL;
CREATE INDEX notifications_request ON notifications (request_id) WHERE request_id IS NOT NULL;

-- An id like every data table, which backups page by.
CREATE TABLE ticket_watchers (
  id INTEGER PRIMARY KEY,
  ticket_id INTEGER NOT NULL REFERENCES tickets(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  UNIQUE (ticket_id, user_id)
);
CREATE INDEX ticket_watchers_user ON ticket_watchers (user_id);
