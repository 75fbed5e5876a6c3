import type { Context } from 'hono';
import { NotFound } from '../errors/domain';
import { badRequest } from './errors';

/** A path value (`:id` unless named) as a positive whole number written in plain digits (not `1e3`), or a 400. */
export const readId = (c: Context, name = 'id') => {
  const raw = c.req.param(name) ?? '';
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : 0;
  if (id < 1) throw badRequest(`${name} must be a positive whole number`, { [name]: ['Must be a positive whole number'] });
  return id;
};

/** The found record, or a 404 naming what was not found. */
export const foundOr404 = <T>(value: T | null, noun: string): T => {
  if (value === null) throw new NotFound(`${noun} not found`);
  return value;
};
