import type { LoginPayload } from '../../../shared/schemas/auth';
import type { LoginResponse } from '../../../shared/types';
import { apiRequest } from '../../lib/api';

export const login = (payload: LoginPayload) =>
  apiRequest<LoginResponse>('auth/login', { method: 'POST', body: payload, authenticated: false });
