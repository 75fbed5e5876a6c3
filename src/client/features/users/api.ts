import type { CreateUserPayload, UpdateUserPayload, UserListQuery } from '../../../shared/schemas/users';
import type { Page, User } from '../../../shared/types';
import { apiRequest } from '../../lib/api';
import { useApi, withQuery } from '../../lib/use-api';

export const useUsers = (query: Partial<UserListQuery>) => useApi<Page<User>>(withQuery('users', query));
export const useUser = (id: number | undefined) => useApi<User>(id ? `users/${id}` : null);

export const createUser = (payload: CreateUserPayload) => apiRequest<User>('users', { method: 'POST', body: payload });
/** `ifMatch`: the version the form was loaded with; a newer one on the server answers 412. */
export const updateUser = (payload: UpdateUserPayload, ifMatch?: number) => apiRequest<User>('users', { method: 'PATCH', body: payload, ifMatch });
