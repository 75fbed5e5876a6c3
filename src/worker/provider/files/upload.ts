import { ATTACHMENT_COMMENT_FIELD, ATTACHMENT_FIELD, ATTACHMENT_MAX_BYTES, attachmentFieldsSchema } from '../../../shared/schemas/attachments';
import { characterFault } from '../../../shared/schemas/fields';
import { normalizeText } from '../../../shared/schemas/text';
import { Invalid } from '../errors/domain';
import { HttpError, badRequest } from '../http/errors';
import { MultipartReader, boundaryOf } from './multipart';
import { sniffType } from './sniff';
import { TooLarge, storeStream } from './store';

// The form's boundaries, headers and comment id around the file: a few hundred bytes in practice.
const FORM_OVERHEAD_BYTES = 64 * 1024;
const MAX_NAME_LENGTH = 200;

export const tooLarge = () => new HttpError(413, { message: 'The file is larger than 25 MiB' });

/**
 * The name to show and save under: the browser's name without any folder or excess length,
 * normalised and held to the rules of typed text, so control characters and direction overrides
 * (`invoice\u202Efdp.exe` shows as `invoiceexe.pdf`) are refused with 400.
 */
export const cleanName = (raw: string) => {
  const base = normalizeText(raw.split(/[/\\]/).pop() ?? '');
  const fault = characterFault(base, false);
  if (fault) throw badRequest(`The file's name: ${fault}`, { [ATTACHMENT_FIELD]: [fault] });
  return Array.from(base).slice(0, MAX_NAME_LENGTH).join('') || 'file';
};

export interface Received {
  name: string;
  bytes: number;
  sha256: string;
  contentType: string;
  commentId: number | null;
}

const noFile = () => badRequest('Choose a file to upload', { [ATTACHMENT_FIELD]: ['Choose a file to upload'] });

/**
 * Reads an upload's form as it arrives and writes its file to `key` in the bucket. Any refusal
 * (too large, a malformed form, an unknown field, an empty file) leaves nothing in the bucket.
 */
export const receiveUpload = async (request: Request, bucket: R2Bucket, key: string): Promise<Received> => {
  const boundary = boundaryOf(request.headers.get('content-type') ?? undefined);
  if (!boundary || !request.body) throw badRequest('Send the file as multipart/form-data', { [ATTACHMENT_FIELD]: ['Send the file as multipart/form-data'] });
  if (Number(request.headers.get('content-length') ?? 0) > ATTACHMENT_MAX_BYTES + FORM_OVERHEAD_BYTES) throw tooLarge();
  const reader = new MultipartReader(request.body, boundary);
  let file: Omit<Received, 'commentId'> | null = null;
  const fields: Record<string, string> = {};
  try {
    for (let part = await reader.next(); part; part = await reader.next()) {
      if (part.name === ATTACHMENT_FIELD && part.filename !== null && !file) {
        const name = cleanName(part.filename);
        const stored = await storeStream(bucket, key, reader.body(), ATTACHMENT_MAX_BYTES);
        file = { name, bytes: stored.bytes, sha256: stored.sha256, contentType: sniffType(stored.head) };
      } else if (part.name === ATTACHMENT_COMMENT_FIELD && !(part.name in fields)) {
        fields[part.name] = await reader.text(32);
      } else {
        throw new Invalid(`Unexpected form field: ${part.name.slice(0, 40)}`, { body: ['Send one file and at most a comment id'] });
      }
    }
    if (!file) throw noFile();
    if (file.bytes === 0) throw badRequest('The file is empty', { [ATTACHMENT_FIELD]: ['The file is empty'] });
    const { commentId } = await attachmentFieldsSchema.validate(fields, { abortEarly: false, strict: false });
    return { ...file, commentId: commentId ?? null };
  } catch (error) {
    await reader.cancel();
    if (file) await bucket.delete(key);
    throw error instanceof TooLarge ? tooLarge() : error;
  }
};
