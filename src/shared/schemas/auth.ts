import { object, type InferType } from 'yup';
import { EMAIL_MAX, PASSWORD_MAX, line } from './fields';

export const loginSchema = object({
  username: line(EMAIL_MAX).required('Email is required'),
  password: line(PASSWORD_MAX).required('Password is required'),
  audience: line(200).required('Audience is required'),
});

export type LoginPayload = InferType<typeof loginSchema>;
