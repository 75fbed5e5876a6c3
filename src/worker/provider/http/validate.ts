import type { Context, MiddlewareHandler } from 'hono';
import type { AnyObject, InferType, ObjectSchema } from 'yup';
import type { ProviderEnv } from './auth';
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
const readBody = async <S extends ObjectSchema<AnyObject>>(c: Context, schema: S): Promise<InferType<S>> => {
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
const readQuery = <S extends ObjectSchema<AnyObject>>(c: Context, schema: S): Promise<InferType<S>> =>
  schema.validate(c.req.query(), { abortEarly: false, stripUnknown: true });

type Validated<Target extends 'json' | 'query', T> = { in: { [K in Target]: T }; out: { [K in Target]: T } };

/**
 * A route's JSON body, validated by its shared yup schema; the handler reads it typed with
 * `c.req.valid('json')`, and the route's type carries it to the API contract check
 * (contract-check.ts). Not Hono's `validator('json')`: that parses only bodies labelled JSON and
 * answers a malformed one itself, where this reads every body and names the fault in the 400 of
 * docs/api.md#errors.
 */
export const jsonBody =
  <S extends ObjectSchema<AnyObject>>(schema: S): MiddlewareHandler<ProviderEnv, string, Validated<'json', InferType<S>>> =>
  async (c, next) => {
    c.req.addValidatedData('json', await readBody(c, schema));
    await next();
  };

/**
 * A route's query, validated by its shared yup schema and read with `c.req.valid('query')`. Typed
 * as the schema's values rather than Hono's strings, so the contract names what a caller means
 * (`page: number`), which the address carries as text.
 */
export const queryOf =
  <S extends ObjectSchema<AnyObject>>(schema: S): MiddlewareHandler<ProviderEnv, string, Validated<'query', InferType<S>>> =>
  async (c, next) => {
    c.req.addValidatedData('query', await readQuery(c, schema));
    await next();
  };
