-- Service levels, part two: the clock on every ticket (docs/architecture.md#service-levels). The
-- write that changes a ticket decides its policy and due times; a comment or status change by
-- someone other than the reporter is its first response. sla_paused_at holds when the clock
-- stopped (on hold, resolved, closed); sla_paused_seconds the business time it stood still before.
-- sla_due_at (the next due time while running) and sla_alert_at (the next warning or breach not
-- yet sent) are derived from the others in the same batch; the minute trigger reads sla_alert_at
-- through its index, so it costs one query when nothing is due. sla_alerts is a bit set of what
-- was sent: 1 first-response warning, 2 first-response breach, 4 resolution warning, 8 resolution
-- breach. A deleted policy leaves its tickets without a clock.
ALTER TABLE tickets ADD COLUMN sla_policy_id INTEGER REFERENCES sla_policies (id) ON DELETE SET NULL;
ALTER TABLE tickets ADD COLUMN sla_started_at TEXT;
ALTER TABLE tickets ADD COLUMN sla_first_response_due_at TEXT;
ALTER TABLE tickets ADD COLUMN sla_first_responded_at TEXT;
ALTER TABLE tickets ADD COLUMN sla_resolution_due_at TEXT;
ALTER TABLE tickets ADD COLUMN sla_first_response_warn_at TEXT;
ALTER TABLE tickets ADD COLUMN sla_resolution_warn_at TEXT;
ALTER TABLE tickets ADD COLUMN sla_paused_seconds INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tickets ADD COLUMN sla_paused_at TEXT;
ALTER TABLE tickets ADD COLUMN sla_alerts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tickets ADD COLUMN sla_due_at TEXT;
ALTER TABLE tickets ADD COLUMN sla_alert_at TEXT;
CREATE INDEX tickets_sla_alert ON tickets (sla_alert_at) WHERE sla_alert_at IS NOT NULL;
CREATE INDEX tickets_sla_due ON tickets (sla_due_at) WHERE sla_due_at IS NOT NULL;
CREATE INDEX tickets_sla_policy ON tickets (sla_policy_id) WHERE sla_policy_id IS NOT NULL;

-- The trigger's warnings are notifications of two new kinds: the same rebuild as 0023.
CREATE TABLE notifications_0027 (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  kind TEXT NOT NULL CHECK (kind IN ('assigned', 'mentioned', 'commented', 'status', 'timesheet_approved', 'timesheet_rejected', 'webhook_disabled',
    'sla_warning', 'sla_breached')),
  entity TEXT NOT NULL,
  entity_id INTEGER NOT NULL,
  actor_id INTEGER REFERENCES users(id),
  title TEXT NOT NULL,
  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  read_at TEXT,
  request_id TEXT,
  comment_id INTEGER,
  CHECK (actor_id IS NULL OR actor_id <> user_id)
);
INSERT INTO notifications_0027 (id, user_id, kind, entity, entity_id, actor_id, title, at, read_at, request_id, comment_id)
  SELECT id, user_id, kind, entity, entity_id, actor_id, title, at, read_at, request_id, comment_id FROM notifications ORDER BY id;
DROP TABLE notifications;
ALTER TABLE notifications_0027 RENAME TO notifications;
CREATE INDEX notifications_user ON notifications (user_id, id);
CREATE INDEX notifications_unread ON notifications (user_id) WHERE read_at IS NULL;
CREATE INDEX notifications_request ON notifications (request_id) WHERE request_id IS NOT NULL;
