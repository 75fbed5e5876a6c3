import { DEFAULT_NOTIFICATION_SETTINGS, MAILED_KINDS, type MailDelivery, type NotificationSettings } from '../../../../shared/mail';
import { auditEvent, type AuditContext } from '../audit';

/**
 * A person's mail delivery per notification kind (docs/api.md#mail). A kind with no row takes the
 * default of src/shared/mail.ts, so nobody needs rows until they change something.
 */
export const readNotificationSettings = async (db: D1Database, userId: number): Promise<NotificationSettings> => {
  const { results } = await db.prepare('SELECT kind, delivery FROM notification_settings WHERE user_id = ?1').bind(userId).all<{ kind: string; delivery: MailDelivery }>();
  const settings = { ...DEFAULT_NOTIFICATION_SETTINGS };
  for (const row of results) if ((MAILED_KINDS as readonly string[]).includes(row.kind)) settings[row.kind as keyof NotificationSettings] = row.delivery;
  return settings;
};

/** Stores every kind's delivery and its audit entry in one batch; answers the settings as saved. */
export const saveNotificationSettings = async (db: D1Database, context: AuditContext & { actorId: number }, settings: NotificationSettings) => {
  const before = await readNotificationSettings(db, context.actorId);
  const changes = Object.fromEntries(MAILED_KINDS.filter((kind) => before[kind] !== settings[kind]).map((kind) => [`notify.${kind}`, [before[kind], settings[kind]] as [unknown, unknown]]));
  const upsert = db.prepare(
    'INSERT INTO notification_settings (user_id, kind, delivery) SELECT ?1, key, value FROM json_each(?2) WHERE true ON CONFLICT (user_id, kind) DO UPDATE SET delivery = excluded.delivery',
  );
  const statements = [upsert.bind(context.actorId, JSON.stringify(settings))];
  if (Object.keys(changes).length) statements.push(auditEvent(db, context, { action: 'update', entity: 'user', entityId: context.actorId, changes }));
  await db.batch(statements);
  return { ...settings };
};
