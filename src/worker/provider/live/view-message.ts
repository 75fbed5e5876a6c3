import type { ViewMessage } from '../../../shared/live';
import { AUDIT_ENTITIES } from '../../../shared/schemas/audit';
import type { AuditEntity } from '../../../shared/types';

const MAX_MESSAGE = 256;
const isEntity = (value: unknown): value is AuditEntity => (AUDIT_ENTITIES as readonly unknown[]).includes(value);

/** A client's `view` message, or undefined for anything else: a socket ignores what it cannot read. */
export const parseViewMessage = (message: string | ArrayBuffer): ViewMessage | undefined => {
  if (typeof message !== 'string' || message.length > MAX_MESSAGE) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(message);
  } catch {
    return undefined;
  }
  if (typeof data !== 'object' || data === null) return undefined;
  const { type, entity, id, editing } = data as Record<string, unknown>;
  if (type !== 'view') return undefined;
  if (entity === null) return { type, entity: null };
  if (!isEntity(entity) || typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) return undefined;
  return { type, entity, id, editing: editing === true };
};
