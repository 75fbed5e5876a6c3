import { number } from 'yup';
// Sets yup's messages before any schema here is built.
import './fields';

/** A record's id in a body: a positive whole number SQLite can hold and JavaScript can count exactly. */
export const recordId = () =>
  number()
    .integer('Must be a whole number')
    .positive('Must be positive')
    .max(Number.MAX_SAFE_INTEGER, 'Too large');

/** A record's id in a query: the same rules, read from text (`?companyId=abc` says what is wrong). */
export const filterId = () => recordId().typeError('Must be a number');
