import { number, setLocale, string } from 'yup';

// yup's default type message echoes the rejected value, which may be huge or hostile; this one
// names only the field. It must run before any schema is built, so it lives in this module that
// every schema imports.
setLocale({ mixed: { notType: ({ path, type }: { path: string; type: string }) => `${path} must be a ${type}` } });

// Control characters and lone surrogates corrupt exports and logs, so names and single-line
// fields refuse them; multi-line text keeps tab, newline and carriage return.
const SINGLE_LINE = /^[^\p{Cc}\p{Cs}]*$/u;
const MULTI_LINE = /^(?:[\t\n\r]|[^\p{Cc}\p{Cs}])*$/u;
const NOT_BLANK = /\S/;

export const INVALID_CHARACTERS = 'Contains characters that are not allowed';
export const EMAIL_MAX = 254;
export const NAME_MAX = 100;
// PBKDF2 cost grows with input length; a cap keeps a huge password from being a cheap DoS.
export const PASSWORD_MAX = 200;

const maxMessage = (max: number) => `Must be at most ${max} characters`;

export const line = (max: number) => string().max(max, maxMessage(max)).matches(SINGLE_LINE, INVALID_CHARACTERS);

export const paragraph = (max: number) =>
  string().max(max, maxMessage(max)).matches(MULTI_LINE, INVALID_CHARACTERS);

/** A single-line value that must hold more than white space when present. */
export const filledLine = (max: number, message: string) =>
  line(max).matches(NOT_BLANK, { message, excludeEmptyString: false });

// The same characters login accepts, so every password that can be set can also sign in. Every
// new password (a user created, a password changed, an admin's reset) takes this one field, so
// a password policy applies everywhere by changing it here.
export const password = () =>
  string().min(1, 'Required').max(PASSWORD_MAX, maxMessage(PASSWORD_MAX)).matches(SINGLE_LINE, INVALID_CHARACTERS);

export const recordId = () =>
  number()
    .integer('Must be a whole number')
    .positive('Must be positive')
    .max(Number.MAX_SAFE_INTEGER, 'Too large');
