import type { Page } from '../../../shared/types';
import { apiRequest } from '../../lib/api';
import { useApi, withQuery } from '../../lib/use-api';

/** The calls one lookup resource (companies or ticket-categories) offers. */
export const lookupApi = <T>(resource: string) => ({
  useList: (query: { q?: string; page: number }) => useApi<Page<T>>(withQuery(resource, query)),
  useRecord: (id: number | undefined) => useApi<T>(id ? `${resource}/${id}` : null),
  create: (values: object) => apiRequest<T>(resource, { method: 'POST', body: values }),
  /** `ifMatch`: the version the form was loaded with; a newer one on the server answers 412. */
  update: (id: number, values: object, ifMatch?: number) => apiRequest<T>(`${resource}/${id}`, { method: 'PATCH', body: values, ifMatch }),
  remove: (id: number) => apiRequest<null>(`${resource}/${id}`, { method: 'DELETE' }),
});
