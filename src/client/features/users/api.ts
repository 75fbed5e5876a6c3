import type { CreateUserPayload, UpdateUserPayload, UserListQuery } from '../../../shared/schemas/users';
import { callApi } from '../../lib/endpoints';
import { useApi } from '../../lib/use-api';

export const useUsers = (query: Partial<UserListQuery>) => useApi('GET /users', { query });
export const useUser = (id: number | undefined) => useApi('GET /users/:id', id ? { params: { id } } : null);
export const fetchUser = (id: number) => callApi('GET /users/:id', { params: { id } });

export const createUser = (payload: CreateUserPayload) => callApi('POST /users', { body: payload });
/** `ifMatch`: the version the form was loaded with; a newer one on the server answers 412. */
export const updateUser = (payload: UpdateUserPayload, ifMatch?: number) => callApi('PATCH /users', { body: payload, ifMatch });
