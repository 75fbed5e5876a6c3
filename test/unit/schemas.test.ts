import { describe, expect, it } from 'vitest';
import { ValidationError, type AnyObject, type ObjectSchema } from 'yup';
import { loginSchema } from '../../src/shared/schemas/auth';
import { nameKey, normalizeText } from '../../src/shared/schemas/text';
import { changePasswordSchema, profileSchema } from '../../src/shared/schemas/users';

const errorsOf = async (schema: ObjectSchema<AnyObject>, value: unknown) => {
  try {
    await schema.validate(value, { abortEarly: false });
    return {};
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return Object.fromEntries(error.inner.map((inner) => [inner.path, inner.message]));
  }
};

describe('shared schemas (docs/architecture.md#forms-and-messages)', () => {
  it('login: the three required messages', async () => {
    expect(await errorsOf(loginSchema, { username: '', password: '', audience: '' })).toEqual({
      username: 'Email is required',
      password: 'Password is required',
      audience: 'Audience is required',
    });
  });

  it('profile: Required for names and for a missing or invalid email', async () => {
    expect(await errorsOf(profileSchema, { id: 1, firstName: '', surname: ' ', email: '' })).toEqual({
      firstName: 'Required',
      surname: 'Required',
      email: 'Required',
    });
    expect(await errorsOf(profileSchema, { id: 1, firstName: 'A', surname: 'B', email: 'not-an-email' })).toEqual({
      email: 'Required',
    });
    expect(await errorsOf(profileSchema, { id: 1, firstName: 'A', surname: 'B', email: 'a@b.co' })).toEqual({});
  });

  it('password change: Required, then Passwords do not match on confirmPassword', async () => {
    expect(await errorsOf(changePasswordSchema, { id: 1, newPassword: '', confirmPassword: '' })).toMatchObject({
      newPassword: 'Required',
      confirmPassword: 'Required',
    });
    expect(await errorsOf(changePasswordSchema, { id: 1, newPassword: 'abc', confirmPassword: 'abd' })).toEqual({
      confirmPassword: 'Passwords do not match',
    });
  });

  it('refuses control characters and lone surrogates in names', async () => {
    const bad = await errorsOf(profileSchema, { id: 1, firstName: 'A\u0000', surname: 'B\ud800', email: 'a@b.co' });
    expect(Object.keys(bad).sort()).toEqual(['firstName', 'surname']);
  });
});

// The security review (docs/decisions.md#the-security-review): the forms apply the same text rules as the provider, from the same module.
describe('shared text rules, as the forms apply them', () => {
  it('profile: invisible-only names are Required, and a bidi override is refused', async () => {
    expect(await errorsOf(profileSchema, { id: 1, firstName: '\u200b\u3164', surname: 'Smith\u202e', email: 'a@example.com' })).toEqual({
      firstName: 'Required',
      surname: 'Must not contain text direction control characters',
    });
  });

  it('profile: an email with spaces around it is valid and comes out trimmed', async () => {
    const value = await profileSchema.validate({ id: 1, firstName: ' Ada ', surname: 'Lovelace', email: ' ada@example.com ' });
    expect(value).toMatchObject({ firstName: 'Ada', email: 'ada@example.com' });
  });

  it('nameKey: every look-alike of a name gives the same key, and different names differ', () => {
    const keys = ['GIFS Group', ' GIFS Group ', 'GIFS\u00a0Group', 'GIFS Group\u200b', 'G\u0406FS Group', '\uff27\uff29\uff26\uff33 group', 'gifs   GROUP'].map(nameKey);
    expect(new Set(keys)).toEqual(new Set(['gifs group']));
    expect(nameKey('GIFS Groups')).not.toBe('gifs group');
  });
});

describe('normalizeText', () => {
  it('trims a long run of spaces that does not reach the end in linear time', () => {
    const text = `${' '.repeat(200_000)}x${' '.repeat(200_000)}y${'\u200b'.repeat(200_000)}`;
    const started = performance.now();
    expect(normalizeText(text)).toBe(`x${' '.repeat(200_000)}y`);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
