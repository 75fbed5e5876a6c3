import { setLocale, string } from 'yup';
import { BIDI_MESSAGE, hasBidiControl, hasVisibleText, normalizeText } from './text';

// yup's default type message echoes the rejected value, which may be huge or hostile; this one
// names only the field. It must run before any schema is built, so it lives in this module that
// every schema imports.
setLocale({ mixed: { notType: ({ path, type }: { path: string; type: string }) => `${path} must be a ${type}` } });

// Control characters and lone surrogates corrupt exports and logs, so names and single-line
// fields refuse them; multi-line text keeps tab, newline and carriage return.
const SINGLE_LINE = /^[^\p{Cc}\p{Cs}]*$/u;
const MULTI_LINE = /^(?:[\t\n\r]|[^\p{Cc}\p{Cs}])*$/u;

export const INVALID_CHARACTERS = 'Contains characters that are not allowed';
export const EMAIL_MAX = 254;
export const NAME_MAX = 100;
// PBKDF2 cost grows with input length; a cap keeps a huge password from being a cheap DoS.
export const PASSWORD_MAX = 200;

const maxMessage = (max: number) => `Must be at most ${max} characters`;

/**
 * Why typed text would be refused for its characters, or null: the rules of `line` (or, with
 * `multiLine`, `paragraph`) for text that arrives outside a schema, such as an imported file's
 * cells. Takes the value as normalizeText leaves it.
 */
export const characterFault = (value: string, multiLine: boolean) => {
  if (!(multiLine ? MULTI_LINE : SINGLE_LINE).test(value)) return INVALID_CHARACTERS;
  if (hasBidiControl(value)) return BIDI_MESSAGE;
  return null;
};

/** A value used exactly as sent (passwords, the audience): no normalising, no trimming. */
export const rawLine = (max: number) => string().max(max, maxMessage(max)).matches(SINGLE_LINE, INVALID_CHARACTERS);

/**
 * Text people type, stored NFC-normalised with white space and invisible characters trimmed off
 * the ends (the transform; the provider applies it after its strict check). The tests read the
 * normalised value too, so the length limit and `Required` mean the same before and after.
 */
const text = (allowed: RegExp, max: number) =>
  string()
    .transform((value: unknown) => (typeof value === 'string' ? normalizeText(value) : value))
    .matches(allowed, INVALID_CHARACTERS)
    .test('bidi', BIDI_MESSAGE, (value) => value == null || !hasBidiControl(value))
    .test('max', maxMessage(max), (value) => value == null || normalizeText(value).length <= max);

const visible = (value: string | null | undefined) => value == null || hasVisibleText(value);

export const line = (max: number) => text(SINGLE_LINE, max);

export const paragraph = (max: number) => text(MULTI_LINE, max);

/** A single-line value that must hold something visible when present. */
export const filledLine = (max: number, message: string) => line(max).test('filled', message, visible);

/** Multi-line text that must hold something visible when present. */
export const filledParagraph = (max: number, message: string) => paragraph(max).test('filled', message, visible);

const EMAIL = string().email();

/** An email address, checked after trimming; `message` when it is not one. */
export const emailText = (max: number, message: string) =>
  line(max).test('email', message, (value) => value == null || EMAIL.isValidSync(normalizeText(value)));

// The same characters login accepts, so every password that can be set can also sign in. Every
// new password (a user created, a password changed, an admin's reset) takes this one field, so
// a password policy applies everywhere by changing it here.
export const password = () => rawLine(PASSWORD_MAX).min(1, 'Required');
