import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ValidationError } from 'yup';
import type { ErrorBody, ProblemBody } from '../../../shared/types';
import { Conflict, Invalid, NotAllowed, NotFound, StaleVersion, TooManyAttempts } from '../errors/domain';

/** An error that already knows its HTTP answer; anything else thrown is a 500. */
export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly body: ErrorBody | ProblemBody,
    readonly headers: Record<string, string> = {},
  ) {
    super('message' in body ? body.message : body.detail);
  }
}

export const badRequest = (message: string, errors?: Record<string, string[]>) =>
  new HttpError(400, errors ? { message, errors } : { message });
export const unauthorized = (message = 'Authentication required') => new HttpError(401, { message });
export const forbidden = (message: string) => new HttpError(403, { message });

const fieldErrors = (error: ValidationError): Record<string, string[]> => {
  const errors: Record<string, string[]> = {};
  for (const inner of error.inner.length ? error.inner : [error]) {
    const path = inner.path || 'body';
    (errors[path] ??= []).push(...inner.errors);
  }
  return errors;
};

/** Turns a yup ValidationError into the 400 body of docs/api.md#errors: a message plus field errors. */
export const validationFailed = (error: ValidationError) => {
  const errors = fieldErrors(error);
  const [path, messages] = Object.entries(errors)[0] ?? ['body', ['Invalid request']];
  const first = messages[0] ?? 'Invalid request';
  const message = path === 'body' || first.startsWith(path) ? first : `${path}: ${first}`;
  return badRequest(message, errors);
};

/** A record's version as its ETag: `"3"`. */
export const etagOf = (version: number) => `"${version}"`;

/** The one place a domain error gets its status; a conflict answers with a problem body (docs/api.md#errors). */
const httpErrorOf = (error: Error) => {
  if (error instanceof ValidationError) return validationFailed(error);
  if (error instanceof Invalid) return badRequest(error.message, error.errors);
  if (error instanceof Conflict) {
    const { message: detail, errors } = error;
    return new HttpError(409, errors ? { title: 'Conflict', status: 409, detail, errors } : { title: 'Conflict', status: 409, detail });
  }
  if (error instanceof NotFound) return new HttpError(404, { message: error.message });
  if (error instanceof NotAllowed) return forbidden(error.message);
  if (error instanceof TooManyAttempts) return new HttpError(429, { message: error.message }, { 'Retry-After': String(error.retryAfterSeconds) });
  return error;
};

export const onError = (error: Error, c: Context) => {
  // docs/architecture.md#record-versions: the answer to a save made from an older version is the record as it now is.
  if (error instanceof StaleVersion) return c.json(error.current, 412, { ETag: etagOf(error.current.version) });
  const known = httpErrorOf(error);
  if (known instanceof HttpError) return c.json(known.body, known.status, known.headers);
  console.error('provider: unhandled error', error);
  return c.json({ message: 'Internal Server Error' }, 500);
};
