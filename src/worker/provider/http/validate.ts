import type { Context } from 'hono';
import type { AnyObject, InferType, ObjectSchema } from 'yup';
import { badRequest } from './errors';

/**
 * Reads and validates a JSON body. Strict: no casting, no unknown fields, so the stored row is
 * exactly what the caller sent or nothing at all.
 */
export const readBody = async <S extends ObjectSchema<AnyObject>>(c: Context, schema: S): Promise<InferType<S>> => {
  let raw: unknown;
  try {
    raw = JSON.parse(await c.req.text());
  } catch {
    throw badRequest('Request body must be valid JSON');
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw badRequest('Request body must be a JSON object');
  }
  return schema.noUnknown(true, 'Unknown field: ${unknown}').validate(raw, { strict: true, abortEarly: false });
};

/** Reads query values, casting text to the schema's types and ignoring values it does not know. */
export const readQuery = <S extends ObjectSchema<AnyObject>>(c: Context, schema: S): Promise<InferType<S>> =>
  schema.validate(c.req.query(), { abortEarly: false, stripUnknown: true });
