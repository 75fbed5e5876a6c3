import { number, object, string } from 'yup';
// Sets yup's messages before any schema here is built.
import './fields';

/** `GET live?ticket=`: the hub checks the ticket itself, so a missing one is answered 401, not 400. */
export const liveQuerySchema = object({ ticket: string().max(100, 'Too long') });

/** `GET live/changes?after=`: the last `seq` the client saw, a whole number from 0 that JavaScript counts exactly. */
export const liveChangesQuerySchema = object({
  after: number()
    .typeError('Must be a number')
    .required('Required')
    .integer('Must be a whole number')
    .min(0, 'Must be 0 or more')
    .max(Number.MAX_SAFE_INTEGER, 'Too large'),
});
