import { proxy } from 'valtio';
import type { PresencePerson, ServerMessage, ViewMessage } from '../../../shared/live';
import type { AuditEntity } from '../../../shared/types';

/**
 * What pages share with the live channel (docs/architecture.md#live-updates). Small and loaded
 * with the pages; the socket itself is in the lazy chunk (./LiveRoot) that registers as sender.
 */

export type LiveStatus = 'off' | 'connecting' | 'online' | 'offline';

/**
 * A message from the server; `resync` after a gap in which messages may have been missed and
 * could not be caught up; `caughtUp` once the changes of a gap have been passed on, for what has
 * no seq to catch up by (notifications).
 */
export type LiveMessage = ServerMessage | { type: 'resync' } | { type: 'caughtUp' };

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
const sendView = (view: ViewMessage) => {
  if (lastView && JSON.stringify(lastView) === JSON.stringify(view)) return;
  lastView = view;
  sender?.(view);
};

interface HeldView {
  entity: AuditEntity;
  id: number;
  editing: boolean;
}

/**
 * The records the open forms are on, newest last. A socket has one view, so it is told the newest
 * record, editing while any form on that record is dirty: a dialog over a ticket's drawer (a
 * comment's correction) is on the ticket too, and closing it leaves the person on the ticket.
 */
const held: HeldView[] = [];
let announcing = false;

/**
 * Says the view once the current turn is over, so one render's changes (a form remounting, a
 * dialog closing over its record's form) go out as where the person ends up, never as a brief
 * leave and return that the others' presence would show.
 */
const announce = () => {
  if (announcing) return;
  announcing = true;
  queueMicrotask(() => {
    announcing = false;
    const top = held.at(-1);
    sendView(
      top
        ? { type: 'view', entity: top.entity, id: top.id, editing: held.some((view) => view.entity === top.entity && view.id === top.id && view.editing) }
        : { type: 'view', entity: null },
    );
  });
};

/** A form on a record for as long as it is open: `editing` follows its dirty state, `release` when it closes. */
export const holdView = (entity: AuditEntity, id: number) => {
  const view: HeldView = { entity, id, editing: false };
  held.push(view);
  announce();
  return {
    editing: (editing: boolean) => {
      view.editing = editing;
      announce();
    },
    release: () => {
      const at = held.indexOf(view);
      if (at >= 0) held.splice(at, 1);
      announce();
    },
  };
};
