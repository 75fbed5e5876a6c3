import { proxy } from 'valtio';
import type { PresencePerson, ServerMessage, ViewMessage } from '../../../shared/live';

/**
 * What pages share with the live channel (docs/architecture.md#live-updates). Small and loaded
 * with the pages; the socket itself is in the lazy chunk (./LiveRoot) that registers as sender.
 */

export type LiveStatus = 'off' | 'connecting' | 'online' | 'offline';

/** A message from the server, or `resync` after a gap in which messages may have been missed. */
export type LiveMessage = ServerMessage | { type: 'resync' };

export const liveState = proxy({
  status: 'off' as LiveStatus,
  /** `entity:id` → the people on that record. */
  presence: {} as Record<string, PresencePerson[]>,
  /** `entity:id` → who saved the version now shown, after a live re-read. */
  updatedBy: {} as Record<string, string>,
});

export const recordKey = (entity: string, id: number) => `${entity}:${id}`;

const listeners = new Set<(message: LiveMessage) => void>();
export const onLive = (listener: (message: LiveMessage) => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};
export const emitLive = (message: LiveMessage) => {
  for (const listener of listeners) listener(message);
};

/** Records an edit form has open: the form re-reads them itself, so a list refresh leaves them be. */
export const editedRecords = new Set<string>();

let sender: ((message: ViewMessage) => void) | null = null;
let lastView: ViewMessage | null = null;
/** The socket, once open; it is told the current view straight away. */
export const setLiveSender = (send: typeof sender) => {
  sender = send;
  if (send && lastView) send(lastView);
};
export const sendView = (view: ViewMessage) => {
  lastView = view;
  sender?.(view);
};
