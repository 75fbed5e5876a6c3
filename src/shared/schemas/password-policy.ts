import { COMMON_PASSWORDS } from '../common-passwords';
import { PASSWORD_MAX, password } from './fields';

/** NIST SP 800-63B's floor for a password the user chooses. */
export const PASSWORD_MIN = 8;

export const PASSWORD_RULES = {
  tooShort: `Password must be at least ${PASSWORD_MIN} characters`,
  blank: 'Password must not be only spaces',
  isEmail: 'Password must not be your email address',
  common: 'Password is too common; choose one that is harder to guess',
} as const;

/** The email the new password must differ from: the `email` beside it, or the one passed in context. */
export interface NewPasswordContext {
  email?: string;
}

/**
 * The rules every new password meets, wherever it is set (create user, change password, an
 * admin's reset). Length counts characters, not UTF-16 units; the common-password and email
 * comparisons ignore case and the spaces around. The provider applies it on top of the request
 * schemas, whose client-side rules (`Required`, `Passwords do not match`) are those of docs/architecture.md#forms-and-messages.
 */
export const newPasswordField = () =>
  password()
    .required(PASSWORD_RULES.tooShort)
    .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`)
    .test('min', PASSWORD_RULES.tooShort, (value) => [...(value ?? '')].length >= PASSWORD_MIN)
    .test('blank', PASSWORD_RULES.blank, (value) => /\S/.test(value ?? ''))
    .test('email', PASSWORD_RULES.isEmail, function notEmail(value) {
      const context = this.options.context as NewPasswordContext | undefined;
      const email = context?.email ?? (this.parent as NewPasswordContext | undefined)?.email;
      return !email || (value ?? '').trim().toLowerCase() !== email.trim().toLowerCase();
    })
    .test('common', PASSWORD_RULES.common, (value) => !COMMON_PASSWORDS.has((value ?? '').trim().toLowerCase()));

