import { useMemo } from 'react';
import type { CommentPayload, TicketChanges, TicketListQuery, TicketPayload, TimeEntryChanges, TimeEntryPayload } from '../../../shared/schemas/tickets';
import { callApi } from '../../lib/endpoints';
import { fullName } from '../../lib/format';
import type { Option } from '../../lib/form/fields';
import { today } from '../../lib/today';
import { useApi } from '../../lib/use-api';

export type TicketFilters = Partial<Omit<TicketListQuery, 'page' | 'pageSize' | 'today'>>;

/** A page of tickets; "overdue" counts from the person's today, like the dashboard's card. */
export const useTickets = (query: TicketFilters & { page: number }) =>
  useApi('GET /tickets', { query: query.overdue ? { ...query, today: today() } : query });
export const useTicket = (id: number | undefined) => useApi('GET /tickets/:id', id ? { params: { id } } : null);
export const useComments = (id: number) => useApi('GET /tickets/:id/comments', { params: { id } });
export const useTimeEntries = (id: number) => useApi('GET /tickets/:id/time-entries', { params: { id } });

const OPTIONS_PAGE = { pageSize: 200 };

/** Companies, categories and staff as select options, for filters and forms. */
export const useTicketOptions = () => {
  const companies = useApi('GET /companies', { query: OPTIONS_PAGE });
  const categories = useApi('GET /ticket-categories', { query: OPTIONS_PAGE });
  const users = useApi('GET /users', { query: OPTIONS_PAGE });
  return useMemo(
    () => ({
      companies: (companies.data?.items ?? []).map((c): Option => ({ value: String(c.id), label: c.name })),
      categories: (categories.data?.items ?? []).map((c): Option => ({ value: String(c.id), label: c.name })),
      users: (users.data?.items ?? []).map((u): Option => ({ value: String(u.id), label: fullName(u) })),
      inactiveUserIds: new Set((users.data?.items ?? []).filter((u) => !u.isActive).map((u) => String(u.id))),
    }),
    [companies.data, categories.data, users.data],
  );
};

/**
 * Whom a ticket may be assigned to: active people only. A ticket already assigned to someone since
 * deactivated keeps them, marked, so the form shows the truth and saving leaves them in place.
 */
export const assigneeOptions = (options: { users: Option[]; inactiveUserIds: Set<string> }, currentId: number | null | undefined) =>
  options.users.flatMap((option) => {
    if (!options.inactiveUserIds.has(option.value)) return [option];
    return option.value === String(currentId) ? [{ ...option, label: `${option.label} (inactive)` }] : [];
  });

export const fetchTicket = (id: number) => callApi('GET /tickets/:id', { params: { id } });
export const createTicket = (payload: TicketPayload) => callApi('POST /tickets', { body: payload });
/** `ifMatch`: the version the form was loaded with; a newer one on the server answers 412. */
export const updateTicket = (id: number, changes: TicketChanges, ifMatch?: number) =>
  callApi('PATCH /tickets/:id', { params: { id }, body: changes, ifMatch });
export const addComment = (id: number, payload: CommentPayload) => callApi('POST /tickets/:id/comments', { params: { id }, body: payload });
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
