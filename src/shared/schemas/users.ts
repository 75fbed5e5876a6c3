import { boolean, object, ref, string, type InferType } from 'yup';
import { ROLES } from '../permissions';
import type { Role } from '../types';
import { EMAIL_MAX, NAME_MAX, emailText, filledLine, password } from './fields';
import { recordId } from './ids';
import { listQuerySchema } from './list';
import { timeZoneField } from './sla';

const name = () => filledLine(NAME_MAX, 'Required');
const email = () => emailText(EMAIL_MAX, 'Required');

export const DEFAULT_ROLE: Role = 'staff';
const role = () => string<Role>().oneOf(ROLES, `Must be one of ${ROLES.join(', ')}`);

export const profileSchema = object({
  id: recordId().required('Required'),
  firstName: name().required('Required'),
  surname: name().required('Required'),
  email: email().required('Required'),
  // The person's own zone: the 07:00 mail digest and their dates follow it (docs/api.md#users).
  timeZone: timeZoneField(),
});
export type ProfilePayload = InferType<typeof profileSchema>;

export const changePasswordSchema = object({
  id: recordId().required('Required'),
  newPassword: password().required('Required'),
  confirmPassword: password()
    .required('Required')
    .oneOf([ref('newPassword')], 'Passwords do not match'),
});
export type ChangePasswordPayload = InferType<typeof changePasswordSchema>;

export const createUserSchema = object({
  firstName: name().required('Required'),
  surname: name().required('Required'),
  email: email().required('Required'),
  password: password().required('Required'),
  role: role(),
});
export type CreateUserPayload = InferType<typeof createUserSchema>;

export const updateUserSchema = object({
  id: recordId().required('Required'),
  firstName: name(),
  surname: name(),
  email: email(),
  isActive: boolean(),
  role: role(),
  // An admin resetting someone's password.
  password: password(),
});
export type UpdateUserPayload = InferType<typeof updateUserSchema>;

export const USER_STATUSES = ['active', 'inactive'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** `GET users`: `q` matches each of its words in a name or the email ("Sam Smith"). */
export const userListQuerySchema = listQuerySchema.shape({
  status: string().oneOf(USER_STATUSES, `Must be one of ${USER_STATUSES.join(', ')}`),
});
export type UserListQuery = InferType<typeof userListQuerySchema>;

/** An admin setting someone else's password (`PATCH users` with only `id` and `password`). */
export const resetPasswordSchema = object({
  id: recordId().required('Required'),
  password: password().required('Required'),
});
export type ResetPasswordPayload = InferType<typeof resetPasswordSchema>;
