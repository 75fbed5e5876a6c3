import { object, string, type InferType } from 'yup';
import { MAIL_DELIVERIES, MAIL_STATUSES, MAILED_KINDS, type MailDelivery, type MailedKind, type MailStatus } from '../mail';
import { isTimeZone } from '../zoned-time';
import { listQuerySchema } from './list';

const deliveryMessage = `Must be one of ${MAIL_DELIVERIES.join(', ')}`;
const delivery = () => string<MailDelivery>().oneOf([...MAIL_DELIVERIES], deliveryMessage).required('Required');

/** `PUT users/me/notification-settings`: every mailed kind names its delivery, so a save is never partial. */
export const notificationSettingsSchema = object(
  Object.fromEntries(MAILED_KINDS.map((kind) => [kind, delivery()])) as Record<MailedKind, ReturnType<typeof delivery>>,
).noUnknown('Unknown field: ${unknown}');
export type NotificationSettingsPayload = InferType<typeof notificationSettingsSchema>;

/**
 * An IANA time zone name, checked with the runtime's own Intl (the same one that later turns it into
 * a local 07:00), so no name is stored that the digest could not use.
 */
export const timeZone = () =>
  string()
    .trim()
    .max(64, 'Must be a time zone such as Europe/London')
    .test('time-zone', 'Must be a time zone such as Europe/London', (value) => value == null || isTimeZone(value));

/** `GET settings/mail`: the log newest first, optionally one status. */
export const mailLogQuerySchema = listQuerySchema.omit(['q']).shape({
  status: string<MailStatus>().oneOf([...MAIL_STATUSES], `Must be one of ${MAIL_STATUSES.join(', ')}`).optional(),
});
export type MailLogQuery = InferType<typeof mailLogQuerySchema>;
