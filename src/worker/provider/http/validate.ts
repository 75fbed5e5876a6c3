import type { Context } from 'hono';
import type { AnyObject, InferType, ObjectSchema } from 'yup';
import { badRequest } from './errors';

// A 400 names at most this many unknown fields, each cut short, so a body with a million keys
// gets a small answer instead of echoing them all.
const UNKNOWN_FIELDS_LISTED = 20;
const FIELD_NAME_SHOWN = 40;

const shown = (name: string) => (name.length > FIELD_NAME_SHOWN ? `${name.slice(0, FIELD_NAME_SHOWN)}…` : name);

const refuseUnknownFields = (raw: object, schema: ObjectSchema<AnyObject>) => {
  const unknown = Object.keys(raw).filter((key) => !Object.hasOwn(schema.fields, key));
  if (!unknown.length) return;
  const listed = unknown.slice(0, UNKNOWN_FIELDS_LISTED).map(shown).join(', ');
  const more = unknown.length > UNKNOWN_FIELDS_LISTED ? ` and ${unknown.length - UNKNOWN_FIELDS_LISTED} more` : '';
  const message = `Unknown field${unknown.length > 1 ? 's' : ''}: ${listed}${more}`;
  throw badRequest(message, { body: [message] });
};

/**
 * Reads and validates a JSON body. Strict: no casting and no unknown fields, so the stored row is
 * exactly what the caller sent or nothing at all. Once valid, the schema's transforms run (text
 * is NFC-normalised and trimmed), which changes no types.
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
  refuseUnknownFields(raw, schema);
  const valid = await schema.validate(raw, { strict: true, abortEarly: false });
  return schema.cast(valid) as InferType<S>;
};

/** Reads query values, casting text to the schema's types and ignoring values it does not know. */
export const readQuery = <S extends ObjectSchema<AnyObject>>(c: Context, schema: S): Promise<InferType<S>> =>
  schema.validate(c.req.query(), { abortEarly: false, stripUnknown: true });
