import type { ChangePasswordPayload, ProfilePayload } from '../../../shared/schemas/users';
import type { BackupResult, ChangePasswordResponse, User } from '../../../shared/types';
import { apiRequest } from '../../lib/api';

export const updateProfile = (payload: ProfilePayload) =>
  apiRequest<User & { status?: number; detail?: string }>('users/profile', { method: 'PATCH', body: payload });

export const changePassword = (payload: ChangePasswordPayload) =>
  apiRequest<ChangePasswordResponse>('users/change-password', { method: 'PATCH', body: payload });

export const backupDatabase = () => apiRequest<BackupResult>('settings/backup-db', { method: 'POST' });
