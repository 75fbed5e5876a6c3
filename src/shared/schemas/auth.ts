import { object, type InferType } from 'yup';
import { EMAIL_MAX, PASSWORD_MAX, line, rawLine } from './fields';

export const loginSchema = object({
  username: line(EMAIL_MAX).required('Email is required'),
  password: rawLine(PASSWORD_MAX).required('Password is required'),
  audience: rawLine(200).required('Audience is required'),
});

export type LoginPayload = InferType<typeof loginSchema>;
