import { DEFAULT_NOTIFICATION_SETTINGS } from '../../../../shared/mail';

/**
 * The daily digest (docs/architecture.md#mail): at 07:00 in each person's time zone, one mail
 * listing their `daily` notifications since their previous digest (the last 24 hours before the
 * first). `digest_key` (`<user id>:<local day>`, UNIQUE) with INSERT OR IGNORE makes it once per
 * person per local day, however many triggers run in that hour; nobody with nothing to read gets one.
 */

/** The hour of the local day the digest goes in. */
export const DIGEST_HOUR = 7;

/** The local day and hour of `now` in `timeZone`, or null for a zone the runtime does not know. */
export const localDayAndHour = (timeZone: string, now: Date) => {
  try {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', hourCycle: 'h23' })
        .formatToParts(now)
        .map((part) => [part.type, part.value]),
    );
    return { day: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) };
  } catch {
    return null;
  }
};

/** The zones of active people where it is now the digest's hour, each with its local day. */
export const zonesDue = (zones: string[], now: Date) =>
  zones.flatMap((zone) => {
    const local = localDayAndHour(zone, now);
    return local && local.hour === DIGEST_HOUR ? [{ zone, day: local.day }] : [];
  });

const html = (sql: string) => `replace(replace(replace(replace(${sql}, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;')`;

/**
 * Queues the digests due at `now`: one query for the zones in use, and only in a zone's 07:00 hour
 * a second, the INSERT. `ticketLink` is the link's start, the ticket id follows it.
 */
export const queueDigests = async (db: D1Database, now: Date, ticketLink: string) => {
  const zones = (await db.prepare('SELECT DISTINCT time_zone FROM users WHERE is_active = 1').all<{ time_zone: string }>()).results.map((row) => row.time_zone);
  const due = zonesDue(zones, now);
  if (due.length === 0) return 0;
  const since = new Date(now.getTime() - 24 * 3_600_000).toISOString();
  const escapedLink = ticketLink.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const result = await db
    .prepare(
      `INSERT OR IGNORE INTO mail_outbox ("to", subject, kind, headers, text, html, digest_key, next_attempt_at)
       SELECT u.email, 'Your daily summary: ' || count(*) || CASE count(*) WHEN 1 THEN ' notification' ELSE ' notifications' END,
              'digest', '{"Auto-Submitted":"auto-generated"}',
              'Since your last summary:' || char(10) || char(10) || group_concat('- #' || n.entity_id || ' ' || n.title || char(10) || '  ' || ?4 || n.entity_id, char(10)) || char(10),
              '<p>Since your last summary:</p><ul>' || group_concat('<li><a href="' || ?5 || n.entity_id || '">#' || n.entity_id || ' ' || ${html('n.title')} || '</a></li>', '') || '</ul>',
              u.id || ':' || json_extract(z.value, '$.day'), ?6
       FROM json_each(?1) z
       JOIN users u ON u.time_zone = json_extract(z.value, '$.zone') AND u.is_active = 1
       JOIN notifications n ON n.user_id = u.id AND n.entity = 'ticket'
         AND n.at > coalesce((SELECT max(m.created_at) FROM mail_outbox m WHERE m.digest_key >= u.id || ':' AND m.digest_key < u.id || ';'), ?2)
       LEFT JOIN notification_settings s ON s.user_id = n.user_id AND s.kind = n.kind
       WHERE coalesce(s.delivery, json_extract(?3, '$.' || n.kind)) = 'daily'
         AND NOT EXISTS (SELECT 1 FROM mail_outbox d WHERE d.digest_key = u.id || ':' || json_extract(z.value, '$.day'))
       GROUP BY u.id, z.value`,
    )
    .bind(JSON.stringify(due), since, JSON.stringify(DEFAULT_NOTIFICATION_SETTINGS), ticketLink, escapedLink, now.toISOString())
    .run();
  return result.meta.changes;
};

/** Bodies are kept 30 days (docs/operations.md#mail); older ones are cleared, one index range. */
export const clearOldBodies = (db: D1Database, now: Date) =>
  db
    .prepare('UPDATE mail_outbox SET text = NULL, html = NULL WHERE (text IS NOT NULL OR html IS NOT NULL) AND created_at < ?1')
    .bind(new Date(now.getTime() - 30 * 86_400_000).toISOString())
    .run();
