import type { CreateUserPayload, UpdateUserPayload, UserListQuery } from '../../../shared/schemas/users';
import { callApi } from '../../lib/endpoints';
import { useApi } from '../../lib/use-api';

export const useUsers = (query: Partial<UserListQuery>) => useApi('GET /users', { query });
export const useUser = (id: number | undefined) => useApi('GET /users/:id', id ? { params: { id } } : null);

export const createUser = (payload: CreateUserPayload) => callApi('POST /users', { body: payload });
export const updateUser = (payload: UpdateUserPayload) => callApi('PATCH /users', { body: payload });
