import { describe, expect, it } from 'vitest';
import { ValidationError, type AnyObject, type ObjectSchema } from 'yup';
import { loginSchema } from '../../src/shared/schemas/auth';
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

describe('shared schemas (SPEC.md §5)', () => {
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
