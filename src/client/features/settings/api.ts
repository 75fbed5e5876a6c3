import type { ChangePasswordPayload, ProfilePayload } from '../../../shared/schemas/users';
import type { NotificationSettingsPayload } from '../../../shared/schemas/mail';
import { callApi } from '../../lib/endpoints';
import { useApi } from '../../lib/use-api';

export const updateProfile = (payload: ProfilePayload) => callApi('PATCH /users/profile', { body: payload });

export const changePassword = (payload: ChangePasswordPayload) => callApi('PATCH /users/change-password', { body: payload });

export const backupDatabase = () => callApi('POST /settings/backup-db');

export const useBackups = () => useApi('GET /settings/backups');

export const useNotificationSettings = () => useApi('GET /users/me/notification-settings');

export const saveNotificationSettings = (payload: NotificationSettingsPayload) => callApi('PUT /users/me/notification-settings', { body: payload });
