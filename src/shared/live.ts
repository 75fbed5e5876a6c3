import type { InferType } from 'yup';
import type { liveChangesQuerySchema, liveQuerySchema } from './schemas/live';
import type { AuditAction, AuditEntity } from './schemas/audit';
import type { Notification } from './types';
import { may, type Permission, type Role } from './permissions';

/** The live channel's messages (docs/architecture.md#live-updates). */

/** Close code of a socket whose session ended: signed out, deactivated, role or password changed. */
export const LIVE_SESSION_ENDED = 4401;
/** How long a ticket from `POST live/ticket` may be used to open a socket, once. */
export const LIVE_TICKET_SECONDS = 30;
/** Open sockets one person may hold at once (tabs and devices together); the next upgrade is 429. */
export const LIVE_SOCKETS_PER_PERSON = 20;
/** Tickets one person may hold unused at once; the next `POST live/ticket` is 429 until one is used or expires. */
export const LIVE_TICKETS_PER_PERSON = 20;

/** The records a socket may be told about, and what a role needs to read them; absent: never sent. */
export const LIVE_ENTITIES: Partial<Record<AuditEntity, Permission | 'everyone'>> = {
  user: 'everyone',
  ticket: 'everyone',
  company: 'everyone',
  ticket_category: 'everyone',
  invoice_line: 'everyone',
  statement: 'everyone',
  backup: 'everyone',
  timesheet: 'everyone',
};

/** Whether a role is told of changes to an entity: by a socket's `changed` events and by `GET live/changes` alike. */
export const liveMayRead = (role: Role, entity: AuditEntity) => {
  const needs = LIVE_ENTITIES[entity];
  return needs === 'everyone' || (needs !== undefined && may(role, needs));
};

/** The entities a role is told of, for a query that must filter as the socket does. */
export const liveEntitiesOf = (role: Role) => (Object.keys(LIVE_ENTITIES) as AuditEntity[]).filter((entity) => liveMayRead(role, entity));

/** The most changes `GET live/changes` lists; past it the answer says to re-read everything. */
export const LIVE_CHANGES_MAX = 1000;

export interface ChangedEvent {
  type: 'changed';
  entity: AuditEntity;
  id: number;
  /** The record's version after the change; null once it is deleted or has none. */
  version: number | null;
  action: AuditAction;
  actorId: number | null;
  actorName: string | null;
  at: string;
  /**
   * The highest audit entry id (the rising sequence every write takes) of the write announced: a
   * client that has seen it asks `GET live/changes?after=<seq>` after a gap and misses nothing.
   */
  seq: number;
}

export interface PresencePerson {
  userId: number;
  name: string;
  editing: boolean;
}

export interface PresenceEvent {
  type: 'presence';
  entity: AuditEntity;
  id: number;
  people: PresencePerson[];
}

export type ServerMessage =
  /** `seq`: the newest audit entry when the socket opened, where a client with no earlier one starts counting. */
  | { type: 'hello'; userId: number; seq: number }
  | ChangedEvent
  | PresenceEvent
  | { type: 'notification'; notification: Notification };

/** What the client says it is looking at: one record at a time; `entity: null` leaves. */
export type ViewMessage = { type: 'view'; entity: AuditEntity; id: number; editing: boolean } | { type: 'view'; entity: null };

export type LiveQuery = InferType<typeof liveQuerySchema>;
export type LiveChangesQuery = InferType<typeof liveChangesQuerySchema>;

/**
 * `GET live/changes?after=<seq>`: the records changed by writes after `seq` that the caller is told
 * of, as the socket would have told them (one a record, the last write winning), oldest first.
 * `reload`: more than LIVE_CHANGES_MAX changed, `changes` is empty and the client re-reads all it
 * shows. `seq` is where the answer ends: the next call's `after`.
 */
export interface LiveChanges {
  seq: number;
  reload: boolean;
  changes: ChangedEvent[];
}

export interface LiveTicket {
  ticket: string;
  expiresAt: string;
}
