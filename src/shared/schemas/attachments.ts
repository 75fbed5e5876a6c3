import { object, type InferType } from 'yup';
import { filterId } from './ids';

/** The largest file one upload may carry (README "Attachments"): 25 MiB; more answers 413. */
export const ATTACHMENT_MAX_BYTES = 25 * 1024 * 1024;
/** Files one ticket may hold; one more answers 409. */
export const ATTACHMENTS_PER_TICKET = 100;
/** The multipart form field of the file, and of the optional comment it belongs to. */
export const ATTACHMENT_FIELD = 'file';
export const ATTACHMENT_COMMENT_FIELD = 'commentId';

/** The optional form values of an upload besides the file, read as text. */
export const attachmentFieldsSchema = object({
  commentId: filterId(),
});
export type AttachmentFields = InferType<typeof attachmentFieldsSchema>;

/** Types served inline: images the browser only ever draws, never runs. */
export const INLINE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

export const isImageType = (contentType: string) => (INLINE_TYPES as readonly string[]).includes(contentType);

export interface Attachment {
  id: number;
  ticketId: number;
  commentId: number | null;
  name: string;
  bytes: number;
  /** Decided from the file's first bytes, never from its name or the uploader's header. */
  contentType: string;
  sha256: string;
  /** Null for a file the ticket's requester sent by mail. */
  uploadedBy: number | null;
  uploadedByName: string;
  at: string;
}
