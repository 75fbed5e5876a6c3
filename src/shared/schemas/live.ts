import { object, string } from 'yup';

/** `GET live?ticket=`: the hub checks the ticket itself, so a missing one is answered 401, not 400. */
export const liveQuerySchema = object({ ticket: string().max(100, 'Too long') });
