import { array, object, type InferType } from 'yup';
import { filterFlag } from './filters';
import { recordId } from './ids';
import { listQuerySchema } from './list';

/** `GET notifications`: the person's own, newest first; `unread=true` leaves out those read. */
export const notificationListQuerySchema = listQuerySchema.omit(['q']).shape({ unread: filterFlag() });
export type NotificationListQuery = InferType<typeof notificationListQuerySchema>;

/** `POST notifications/read`: the given ids, or every one when `ids` is absent. */
export const markReadSchema = object({
  ids: array(recordId().required('Must be an id')).max(200, 'At most 200 ids at once').optional(),
}).noUnknown('Unknown field: ${unknown}');
export type MarkReadPayload = InferType<typeof markReadSchema>;
