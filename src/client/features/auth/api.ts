import type { LoginPayload } from '../../../shared/schemas/auth';
import { callApi } from '../../lib/endpoints';

export const login = (payload: LoginPayload) => callApi('POST /auth/login', { body: payload, authenticated: false });
