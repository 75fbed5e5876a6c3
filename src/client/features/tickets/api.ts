import type { CommentPayload, NewCommentPayload, TicketChanges, TicketListQuery, TicketPayload, TimeEntryChanges, TimeEntryPayload } from '../../../shared/schemas/tickets';
import { callApi } from '../../lib/endpoints';
import { today } from '../../lib/today';
import { useApi } from '../../lib/use-api';

export type TicketFilters = Partial<Omit<TicketListQuery, 'page' | 'pageSize' | 'today'>>;

/** A page of tickets; "overdue" counts from the person's today, like the dashboard's card. */
export const useTickets = (query: TicketFilters & { page: number }) =>
  useApi('GET /tickets', { query: query.overdue ? { ...query, today: today() } : query });
export const useTicket = (id: number | undefined) => useApi('GET /tickets/:id', id ? { params: { id } } : null);
export const useComments = (id: number) => useApi('GET /tickets/:id/comments', { params: { id } });
export const useTimeEntries = (id: number) => useApi('GET /tickets/:id/time-entries', { params: { id } });

export const fetchTicket = (id: number) => callApi('GET /tickets/:id', { params: { id } });
export const createTicket = (payload: TicketPayload) => callApi('POST /tickets', { body: payload });
/** `ifMatch`: the version the form was loaded with; a newer one on the server answers 412. */
export const updateTicket = (id: number, changes: TicketChanges, ifMatch?: number) =>
  callApi('PATCH /tickets/:id', { params: { id }, body: changes, ifMatch });
export const addComment = (id: number, payload: NewCommentPayload) => callApi('POST /tickets/:id/comments', { params: { id }, body: payload });
export const addTimeEntry = (id: number, payload: TimeEntryPayload) => callApi('POST /tickets/:id/time-entries', { params: { id }, body: payload });

/** Corrections: the author's or an admin's, from the version shown (412 when it has moved on). */
export const editComment = (id: number, commentId: number, payload: CommentPayload, ifMatch?: number) =>
  callApi('PATCH /tickets/:id/comments/:commentId', { params: { id, commentId }, body: payload, ifMatch });
export const deleteComment = (id: number, commentId: number, ifMatch: number) =>
  callApi('DELETE /tickets/:id/comments/:commentId', { params: { id, commentId }, ifMatch });
export const editTimeEntry = (id: number, entryId: number, changes: TimeEntryChanges, ifMatch?: number) =>
  callApi('PATCH /tickets/:id/time-entries/:entryId', { params: { id, entryId }, body: changes, ifMatch });
export const deleteTimeEntry = (id: number, entryId: number, ifMatch: number) =>
  callApi('DELETE /tickets/:id/time-entries/:entryId', { params: { id, entryId }, ifMatch });

/** One row of a ticket's list as it now is; an error once it has been deleted. */
const rowOf = <T extends { id: number }>(items: readonly T[], id: number, noun: string) => {
  const row = items.find((item) => item.id === id);
  if (!row) throw new Error(`${noun} was deleted`);
  return row;
};
/** A comment or time entry as it now is, from its ticket's list (they have no address of their own to read). */
export const fetchComment = async (id: number, commentId: number) =>
  rowOf((await callApi('GET /tickets/:id/comments', { params: { id } })).items, commentId, 'Comment');
export const fetchTimeEntry = async (id: number, entryId: number) =>
  rowOf((await callApi('GET /tickets/:id/time-entries', { params: { id } })).items, entryId, 'Time entry');
