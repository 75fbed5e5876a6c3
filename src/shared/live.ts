import type { InferType } from 'yup';
import type { liveQuerySchema } from './schemas/live';
import type { AuditAction, AuditEntity } from './schemas/audit';
import type { Notification } from './types';
import type { Permission } from './permissions';

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
  | { type: 'hello'; userId: number }
  | ChangedEvent
  | PresenceEvent
  | { type: 'notification'; notification: Notification };

/** What the client says it is looking at: one record at a time; `entity: null` leaves. */
export type ViewMessage = { type: 'view'; entity: AuditEntity; id: number; editing: boolean } | { type: 'view'; entity: null };

export type LiveQuery = InferType<typeof liveQuerySchema>;

export interface LiveTicket {
  ticket: string;
  expiresAt: string;
}
