import type { Context } from 'hono';
import { IMPORT_MAX_BYTES } from '../../../shared/schemas/imports';
import { HttpError, badRequest } from './errors';

const CSV_TYPES = /^(text\/csv|text\/plain|application\/csv)\s*(;|$)/i;
const tooLarge = () => new HttpError(413, { message: `The file is larger than ${IMPORT_MAX_BYTES / 1_000_000} MB; split it` });

/**
 * A CSV request body as text: text/csv (or text/plain), at most IMPORT_MAX_BYTES, UTF-8 with or
 * without a byte order mark (which is dropped). Anything else is refused before it is parsed.
 */
export const readCsvBody = async (c: Context) => {
  if (!CSV_TYPES.test(c.req.header('content-type') ?? '')) {
    throw new HttpError(415, { message: 'Send the file as text/csv' });
  }
  if (Number(c.req.header('content-length') ?? 0) > IMPORT_MAX_BYTES) throw tooLarge();
  const bytes = await c.req.arrayBuffer();
  if (bytes.byteLength > IMPORT_MAX_BYTES) throw tooLarge();
  try {
    // fatal: a byte sequence that is not UTF-8 is refused rather than read as replacement characters.
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw badRequest('The file is not UTF-8 text; save it as CSV UTF-8', { file: ['Not UTF-8'] });
  }
};
