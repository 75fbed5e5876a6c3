import { number, object, string, type InferType } from 'yup';
import { filledLine } from './fields';
import { filterFlag } from './filters';

/** A token's name as people see it in Settings → API tokens ("Nightly export"). */
export const API_TOKEN_NAME_MAX = 100;

/** How long a token may live, in days (docs/api.md#api-tokens). */
export const API_TOKEN_DAYS_MIN = 1;
export const API_TOKEN_DAYS_MAX = 365;

/** `read` tokens may only GET and HEAD; `write` tokens may do whatever their person may. */
export const API_TOKEN_ACCESS = ['read', 'write'] as const;
export type ApiTokenAccess = (typeof API_TOKEN_ACCESS)[number];

/** What every token starts with, so a leaked one is recognisable (and found by secret scanners). */
export const API_TOKEN_PREFIX = 'sat_';

const DAYS_MESSAGE = `Must be a whole number of days from ${API_TOKEN_DAYS_MIN} to ${API_TOKEN_DAYS_MAX}`;

/** `POST auth/api-tokens`. */
export const createApiTokenSchema = object({
  name: filledLine(API_TOKEN_NAME_MAX, 'Name is required').required('Name is required'),
  expiresInDays: number()
    .typeError(DAYS_MESSAGE)
    .integer(DAYS_MESSAGE)
    .min(API_TOKEN_DAYS_MIN, DAYS_MESSAGE)
    .max(API_TOKEN_DAYS_MAX, DAYS_MESSAGE)
    .required('Expiry is required'),
  access: string().oneOf(API_TOKEN_ACCESS, 'Must be read or write').required('Access is required'),
});
export type CreateApiTokenPayload = InferType<typeof createApiTokenSchema>;

/** `GET auth/api-tokens`: `all=true` lists everyone's (admins only). */
export const apiTokenListQuerySchema = object({ all: filterFlag() });
export type ApiTokenListQuery = InferType<typeof apiTokenListQuerySchema>;
