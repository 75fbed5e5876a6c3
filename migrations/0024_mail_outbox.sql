-- Mail sending (docs/architecture.md#mail): each person's time zone for the 07:00 digest, their
-- delivery per mailed notification kind, and the outbox every mail passes through.
ALTER TABLE users ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'UTC';

-- A missing row means the default of src/shared/mail.ts, so existing people need no rows.
CREATE TABLE notification_settings (
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('assigned', 'mentioned', 'commented', 'status')),
  delivery TEXT NOT NULL CHECK (delivery IN ('instant', 'daily', 'off')),
  PRIMARY KEY (user_id, kind)
);

-- Written in the same batch as the notification it carries, sent after commit; the minute trigger
-- retries what failed. `digest_key` (user id and local day) makes a day's digest unique per person.
CREATE TABLE mail_outbox (
  id INTEGER PRIMARY KEY,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  "to" TEXT NOT NULL,
  subject TEXT NOT NULL,
  kind TEXT NOT NULL,
  ticket_id INTEGER,
  reply_to TEXT,
  text TEXT,
  html TEXT,
  headers TEXT NOT NULL DEFAULT '{}',
  status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  next_attempt_at TEXT,
  sent_at TEXT,
  notification_id INTEGER,
  request_id TEXT,
  digest_key TEXT UNIQUE
);
-- The minute trigger reads due rows as one range of this index.
CREATE INDEX mail_outbox_due ON mail_outbox (status, next_attempt_at);
-- The mails one request queued, sent right after it commits.
CREATE INDEX mail_outbox_request ON mail_outbox (request_id) WHERE request_id IS NOT NULL;
