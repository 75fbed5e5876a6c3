import { describe, expect, it } from 'vitest';
import { api, attemptLogin, expectError, signedIn } from './support';

// Security review (docs/decisions.md#the-security-review), finding 4: new passwords are at least 8 characters, not only white space, not the
// email and not a common password; the 400 says which.

const changePassword = (token: string, id: number, newPassword: string) =>
  api('users/change-password', { method: 'PATCH', token, json: { id, newPassword, confirmPassword: newPassword } });

const createUser = (token: string, email: string, password: string) =>
  api('users', { method: 'POST', token, json: { firstName: 'Pat', surname: 'Policy', email, password } });

const freshEmail = () => `policy-${crypto.randomUUID().slice(0, 8)}@example.com`;

const refused: [label: string, password: (email: string) => string, message: RegExp][] = [
  ['a single space', () => ' ', /at least 8 characters/],
  ['"1"', () => '1', /at least 8 characters/],
  ['7 characters', () => 'abcdefg', /at least 8 characters/],
  ['7 characters made of 14 UTF-16 units', () => '😀😀😀😀😀😀😀', /at least 8 characters/],
  ['eight spaces', () => '        ', /only spaces/],
  ['no-break and ideographic spaces', () => '\u00a0\u3000 \u00a0\u3000 \u00a0\u3000', /only spaces/],
  ['the email', (email) => email, /email address/],
  ['the email in capitals', (email) => email.toUpperCase(), /email address/],
  ['a common password', () => 'password123', /too common/],
  ['a common password in another case', () => 'QWERTY123', /too common/],
  ['the app’s own name', () => 'staff-app', /too common/],
];

describe('PATCH users/change-password', () => {
  it.each(refused)('refuses %s with a 400 that says why, and the old password still signs in', async (_, make, message) => {
    const { token, user } = await signedIn();
    const error = await expectError(await changePassword(token, user.id, make(user.email)), 400);
    expect(error.message).toMatch(message);
    expect(error.errors?.newPassword?.[0]).toMatch(message);
    expect((await attemptLogin(user)).status).toBe(200);
  });

  it('accepts a password that meets every rule (the control)', async () => {
    const { token, user } = await signedIn();
    expect((await changePassword(token, user.id, 'plum-orchard-1987')).status).toBe(200);
    expect((await attemptLogin({ ...user, password: 'plum-orchard-1987' })).status).toBe(200);
  });

  it('keeps SPEC’s own rules first: an empty password is “Required”, a mismatch “Passwords do not match”', async () => {
    const { token, user } = await signedIn();
    const empty = await expectError(await changePassword(token, user.id, ''), 400);
    expect(empty.errors?.newPassword).toContain('Required');
    const mismatch = await expectError(
      await api('users/change-password', { method: 'PATCH', token, json: { id: user.id, newPassword: 'x', confirmPassword: 'y' } }),
      400,
    );
    expect(mismatch.errors?.confirmPassword).toContain('Passwords do not match');
  });
});

describe('POST users', () => {
  it.each(refused)('refuses %s and creates no user', async (_, make, message) => {
    const { token } = await signedIn();
    const email = freshEmail();
    const error = await expectError(await createUser(token, email, make(email)), 400);
    expect(error.message).toMatch(message);
    expect(error.errors?.password?.[0]).toMatch(message);
    const found = (await (await api(`users?q=${encodeURIComponent(email)}`, { token })).json()) as { total: number };
    expect(found.total).toBe(0);
  });

  it('creates a user whose password meets every rule (the control)', async () => {
    const { token } = await signedIn();
    const email = freshEmail();
    expect((await createUser(token, email, 'quiet lantern 42')).status).toBe(201);
    expect((await attemptLogin({ email, password: 'quiet lantern 42' })).status).toBe(200);
  });
});
