import type { NotificationKind } from '../../../../shared/types';
import { notificationsOfRequest } from '../notifications';
import { queueNotificationMail } from '../mail/notify';
import { refreshClock } from './clock-sql';

/**
 * The service-level warnings (docs/architecture.md#service-levels): the minute trigger reads the
 * tickets whose next unsent warning or breach is due through the index on `sla_alert_at` (one
 * query when none is), and tells each ticket's assignee, or every admin while it has none, once
 * per target. What was sent is a bit set on the ticket, changed in the same batch as the
 * notifications and only from the value read, so two runs at once cannot send one twice.
 */

interface DueRow {
  id: number;
  title: string;
  sla_policy_id: number | null;
  sla_alerts: number;
  sla_alert_at: string;
  sla_first_responded_at: string | null;
  sla_first_response_warn_at: string;
  sla_first_response_due_at: string;
  sla_resolution_warn_at: string;
  sla_resolution_due_at: string;
}

interface Target {
  name: string;
  warnBit: number;
  breachBit: number;
  warnAt: (row: DueRow) => string;
  dueAt: (row: DueRow) => string;
  /** A first response once made ends its target: nothing more is due for it. */
  ended: (row: DueRow) => boolean;
}

const TARGETS: Target[] = [
  {
    name: 'First response',
    warnBit: 1,
    breachBit: 2,
    warnAt: (row) => row.sla_first_response_warn_at,
    dueAt: (row) => row.sla_first_response_due_at,
    ended: (row) => row.sla_first_responded_at !== null,
  },
  { name: 'Resolution', warnBit: 4, breachBit: 8, warnAt: (row) => row.sla_resolution_warn_at, dueAt: (row) => row.sla_resolution_due_at, ended: () => false },
];

/** Tickets handled per run; more wait for the next minute, oldest due first. */
export const SLA_ALERTS_PER_RUN = 100;

const DUE_SQL = `SELECT id, title, sla_policy_id, sla_alerts, sla_alert_at, sla_first_responded_at, sla_first_response_warn_at,
    sla_first_response_due_at, sla_resolution_warn_at, sla_resolution_due_at
  FROM tickets WHERE sla_alert_at <= ?1 ORDER BY sla_alert_at LIMIT ?2`;

// The assignee while active; else every active admin.
const NOTIFY_SQL = `INSERT INTO notifications (user_id, kind, entity, entity_id, title, request_id)
  SELECT u.id, ?3, 'ticket', t.id, ?4, ?5 FROM tickets t JOIN users u ON u.is_active = 1 AND (u.id = t.assignee_id
      OR (u.role = 'admin' AND NOT EXISTS (SELECT 1 FROM users a WHERE a.id = t.assignee_id AND a.is_active = 1)))
  WHERE t.id = ?1 AND t.sla_alerts = ?2 AND t.sla_alert_at = ?6`;

/** What is due on one ticket at `now`: the notices to send and the bit set after them. */
export const alertsDue = (row: DueRow, now: string) => {
  const notices: { kind: NotificationKind; title: string }[] = [];
  let sent = row.sla_alerts;
  for (const target of TARGETS) {
    if (target.ended(row)) continue;
    const subject = `#${row.id} ${row.title}`;
    if (!(sent & target.breachBit) && target.dueAt(row) <= now) {
      notices.push({ kind: 'sla_breached', title: `${target.name} overdue: ${subject}` });
      // A breach makes its warning pointless: it is not sent afterwards.
      sent |= target.breachBit | target.warnBit;
    } else if (!(sent & target.warnBit) && target.warnAt(row) <= now) {
      notices.push({ kind: 'sla_warning', title: `${target.name} due soon: ${subject}` });
      sent |= target.warnBit;
    }
  }
  return { notices, sent };
};

/**
 * Sends what is due at `now` and answers the notifications written, for the live channel. A ticket
 * whose policy was deleted has its derived columns cleared instead.
 */
export const sendSlaAlerts = async (db: D1Database, now = new Date()) => {
  const nowIso = now.toISOString();
  const due = (await db.prepare(DUE_SQL).bind(nowIso, SLA_ALERTS_PER_RUN).all<DueRow>()).results;
  if (due.length === 0) return [];
  const requestId = `sla-${crypto.randomUUID()}`;
  const statements = due.flatMap((row) => {
    const { notices, sent } = row.sla_policy_id === null ? { notices: [], sent: row.sla_alerts } : alertsDue(row, nowIso);
    return [
      ...notices.map((notice) => db.prepare(NOTIFY_SQL).bind(row.id, row.sla_alerts, notice.kind, notice.title.slice(0, 300), requestId, row.sla_alert_at)),
      db.prepare('UPDATE tickets SET sla_alerts = ?2 WHERE id = ?1 AND sla_alerts = ?3 AND sla_alert_at = ?4').bind(row.id, sent, row.sla_alerts, row.sla_alert_at),
      refreshClock(db, row.id),
    ];
  });
  await db.batch([...statements, queueNotificationMail(db, requestId)]);
  return notificationsOfRequest(db, null, requestId);
};
