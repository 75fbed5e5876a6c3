import { DEFAULT_NOTIFICATION_SETTINGS } from '../../../../shared/mail';

/**
 * The mail of one request's notifications (docs/architecture.md#mail), as the LAST statement of the
 * batch that writes them: a notification is mailed exactly when it is stored. Only to active
 * people, only for `instant` delivery (their setting, else the default; service-level warnings
 * always), never twice for one notification. The body and Reply-To are rendered when the row is
 * claimed for sending (mail/render.ts), since they need APP_URL and the signing secret. The
 * subject names the ticket once: a service-level notice's own `#<id> ` is left out after `[#<id>]`.
 */
export const queueNotificationMail = (db: D1Database, requestId: string | null) =>
  db
    .prepare(
      `INSERT INTO mail_outbox ("to", subject, kind, ticket_id, headers, request_id, notification_id, next_attempt_at)
       SELECT u.email, '[#' || n.entity_id || '] ' || trim(replace(replace(replace(replace(n.title, '#' || n.entity_id || ' ', ''), char(13), ' '), char(10), ' '), char(9), ' ')),
              n.kind, n.entity_id, '{"Auto-Submitted":"auto-generated"}', n.request_id, n.id, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
       FROM notifications n
       JOIN users u ON u.id = n.user_id AND u.is_active = 1
       LEFT JOIN notification_settings s ON s.user_id = n.user_id AND s.kind = n.kind
       WHERE n.request_id = ?1 AND n.entity = 'ticket'
         AND (n.kind IN ('sla_warning', 'sla_breached') OR coalesce(s.delivery, json_extract(?2, '$.' || n.kind)) = 'instant')
         AND NOT EXISTS (SELECT 1 FROM mail_outbox m WHERE m.notification_id = n.id)`,
    )
    .bind(requestId, JSON.stringify(DEFAULT_NOTIFICATION_SETTINGS));
