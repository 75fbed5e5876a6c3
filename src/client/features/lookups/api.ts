import type { SWRResponse } from 'swr';
import type { CompanyChanges, CompanyPayload, TicketCategoryChanges, TicketCategoryPayload } from '../../../shared/schemas/lookups';
import type { CalendarChanges, CalendarPayload, SlaPolicyChanges, SlaPolicyPayload } from '../../../shared/schemas/sla';
import type { Calendar, SlaPolicy } from '../../../shared/sla';
import type { Company, LookupUses, Page, TicketCategory } from '../../../shared/types';
import { callApi } from '../../lib/endpoints';
import { useApi } from '../../lib/use-api';

/** The calls one lookup resource offers. */
export interface LookupApi<T> {
  useList: (query: { q?: string; page: number }) => SWRResponse<Page<T>, Error>;
  useRecord: (id: number | undefined) => SWRResponse<T, Error>;
  /** What still refers to the record; asked only while `id` is set (a delete is being considered). */
  useUses: (id: number | undefined) => SWRResponse<LookupUses, Error>;
  /** The record as it now is, outside the page's cache (a live re-read). */
  fetch: (id: number) => Promise<T>;
  /** The lookup page's form sends what the resource's create or update schema validated. */
  create: (values: object) => Promise<T>;
  /** `ifMatch`: the version the form was loaded with; a newer one on the server answers 412. */
  update: (id: number, values: object, ifMatch?: number) => Promise<T>;
  remove: (id: number) => Promise<null>;
}

// Each resource spelled out, so every call is checked against its own entry in the contract.
const APIS = {
  companies: {
    useList: (query) => useApi('GET /companies', { query }),
    useRecord: (id) => useApi('GET /companies/:id', id ? { params: { id } } : null),
    useUses: (id) => useApi('GET /companies/:id/uses', id ? { params: { id } } : null),
    fetch: (id) => callApi('GET /companies/:id', { params: { id } }),
    create: (values) => callApi('POST /companies', { body: values as CompanyPayload }),
    update: (id, values, ifMatch) => callApi('PATCH /companies/:id', { params: { id }, body: values as CompanyChanges, ifMatch }),
    remove: (id) => callApi('DELETE /companies/:id', { params: { id } }),
  } satisfies LookupApi<Company>,
  'ticket-categories': {
    useList: (query) => useApi('GET /ticket-categories', { query }),
    useRecord: (id) => useApi('GET /ticket-categories/:id', id ? { params: { id } } : null),
    useUses: (id) => useApi('GET /ticket-categories/:id/uses', id ? { params: { id } } : null),
    fetch: (id) => callApi('GET /ticket-categories/:id', { params: { id } }),
    create: (values) => callApi('POST /ticket-categories', { body: values as TicketCategoryPayload }),
    update: (id, values, ifMatch) => callApi('PATCH /ticket-categories/:id', { params: { id }, body: values as TicketCategoryChanges, ifMatch }),
    remove: (id) => callApi('DELETE /ticket-categories/:id', { params: { id } }),
  } satisfies LookupApi<TicketCategory>,
  calendars: {
    useList: (query) => useApi('GET /calendars', { query }),
    useRecord: (id) => useApi('GET /calendars/:id', id ? { params: { id } } : null),
    useUses: (id) => useApi('GET /calendars/:id/uses', id ? { params: { id } } : null),
    fetch: (id) => callApi('GET /calendars/:id', { params: { id } }),
    create: (values) => callApi('POST /calendars', { body: values as CalendarPayload }),
    update: (id, values, ifMatch) => callApi('PATCH /calendars/:id', { params: { id }, body: values as CalendarChanges, ifMatch }),
    remove: (id) => callApi('DELETE /calendars/:id', { params: { id } }),
  } satisfies LookupApi<Calendar>,
  'sla-policies': {
    useList: (query) => useApi('GET /sla-policies', { query }),
    useRecord: (id) => useApi('GET /sla-policies/:id', id ? { params: { id } } : null),
    useUses: (id) => useApi('GET /sla-policies/:id/uses', id ? { params: { id } } : null),
    fetch: (id) => callApi('GET /sla-policies/:id', { params: { id } }),
    create: (values) => callApi('POST /sla-policies', { body: values as SlaPolicyPayload }),
    update: (id, values, ifMatch) => callApi('PATCH /sla-policies/:id', { params: { id }, body: values as SlaPolicyChanges, ifMatch }),
    remove: (id) => callApi('DELETE /sla-policies/:id', { params: { id } }),
  } satisfies LookupApi<SlaPolicy>,
};

/** The calls of one lookup resource (companies, ticket categories, calendars, service-level policies). */
export const lookupApi = <R extends keyof typeof APIS>(resource: R) => APIS[resource];
