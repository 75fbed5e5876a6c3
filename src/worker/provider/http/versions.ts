import type { Context } from 'hono';
import type { Versioned } from '../../../shared/types';
import { badRequest, etagOf } from './errors';

// "3", W/"3" (a weak tag compares equal for If-Match here: the version is the record's whole
// state) or a bare 3, as some clients send it.
const IF_MATCH = /^(?:W\/)?(?:"(\d{1,15})"|(\d{1,15}))$/;

/**
 * The version a PATCH's If-Match names; undefined without the header, or for `*` (any version of a
 * record that exists, which the write checks anyway). A value that names no version is a 400.
 */
export const readIfMatch = (c: Context): number | undefined => {
  const raw = c.req.header('if-match')?.trim();
  if (raw === undefined || raw === '*') return undefined;
  const match = IF_MATCH.exec(raw);
  if (!match) throw badRequest(`If-Match must name one record version, such as "3"; got ${JSON.stringify(raw.slice(0, 40))}`);
  return Number(match[1] ?? match[2]);
};

/** A record answered with its version as the ETag, for GET and PATCH alike. */
export const versioned = <T extends Versioned>(c: Context, record: T) => {
  c.header('ETag', etagOf(record.version));
  return c.json(record);
};
