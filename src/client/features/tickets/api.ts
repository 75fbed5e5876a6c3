import { useMemo } from 'react';
import type { CommentPayload, TicketChanges, TicketListQuery, TicketPayload, TimeEntryPayload } from '../../../shared/schemas/tickets';
import type { Company, Page, Ticket, TicketCategory, TicketComment, TimeEntry, User } from '../../../shared/types';
import { apiRequest } from '../../lib/api';
import { fullName } from '../../lib/format';
import type { Option } from '../../lib/form/fields';
import { useApi, withQuery } from '../../lib/use-api';

export type TicketFilters = Partial<Omit<TicketListQuery, 'page' | 'pageSize'>>;

export const useTickets = (query: TicketFilters & { page: number }) => useApi<Page<Ticket>>(withQuery('tickets', query));
export const useTicket = (id: number | undefined) => useApi<Ticket>(id ? `tickets/${id}` : null);
export const useComments = (id: number) => useApi<{ items: TicketComment[] }>(`tickets/${id}/comments`);
export const useTimeEntries = (id: number) => useApi<{ items: TimeEntry[] }>(`tickets/${id}/time-entries`);

const OPTIONS_PAGE = 'pageSize=200';

/** Companies, categories and staff as select options, for filters and forms. */
export const useTicketOptions = () => {
  const companies = useApi<Page<Company>>(`companies?${OPTIONS_PAGE}`);
  const categories = useApi<Page<TicketCategory>>(`ticket-categories?${OPTIONS_PAGE}`);
  const users = useApi<Page<User>>(`users?${OPTIONS_PAGE}`);
  return useMemo(
    () => ({
      companies: (companies.data?.items ?? []).map((c): Option => ({ value: String(c.id), label: c.name })),
      categories: (categories.data?.items ?? []).map((c): Option => ({ value: String(c.id), label: c.name })),
      users: (users.data?.items ?? []).map((u): Option => ({ value: String(u.id), label: fullName(u) })),
    }),
    [companies.data, categories.data, users.data],
  );
};

export const createTicket = (payload: TicketPayload) => apiRequest<Ticket>('tickets', { method: 'POST', body: payload });
/** `ifMatch`: the version the form was loaded with; a newer one on the server answers 412. */
export const updateTicket = (id: number, changes: TicketChanges, ifMatch?: number) =>
  apiRequest<Ticket>(`tickets/${id}`, { method: 'PATCH', body: changes, ifMatch });
export const addComment = (id: number, payload: CommentPayload) =>
  apiRequest<TicketComment>(`tickets/${id}/comments`, { method: 'POST', body: payload });
export const addTimeEntry = (id: number, payload: TimeEntryPayload) =>
  apiRequest<TimeEntry>(`tickets/${id}/time-entries`, { method: 'POST', body: payload });
