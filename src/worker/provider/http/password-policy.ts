import { ValidationError } from 'yup';
import { newPasswordField } from '../../../shared/schemas/password-policy';
import { badRequest } from './errors';

/**
 * 400 with the rule's message when `password` may not be set as `email`'s new password (too
 * short, only spaces, the email itself, a common password). `field` names it in `errors`.
 */
export const assertNewPassword = async (password: string, email: string, field: string) => {
  try {
    await newPasswordField().validate(password, { context: { email } });
  } catch (error) {
    if (error instanceof ValidationError) throw badRequest(error.message, { [field]: error.errors });
    throw error;
  }
};
