-- Mail sending (docs/architecture.md#mail): a notification is queued at most once, and bodies older
-- than 30 days are cleared by the minute trigger as one range of an index rather than a scan.
CREATE UNIQUE INDEX mail_outbox_notification ON mail_outbox (notification_id) WHERE notification_id IS NOT NULL;
CREATE INDEX mail_outbox_kept ON mail_outbox (created_at) WHERE text IS NOT NULL OR html IS NOT NULL;
