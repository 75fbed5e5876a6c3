import { Hono } from 'hono';
import { changePasswordSchema, createUserSchema, profileSchema, updateUserSchema, userListQuerySchema } from '../../../shared/schemas/users';
import type { ChangePasswordResponse } from '../../../shared/types';
import { hashPassword } from '../auth/password';
import { issueToken } from '../auth/token';
import { editUser, findUser, insertUser, listUsers, updateUser } from '../db/users';
import { auditContext } from '../http/audit-context';
import { assertSelf, requireAuth, requireRole, type ProviderEnv } from '../http/auth';
import { foundOr404, readId } from '../http/params';
import { assertNewPassword } from '../http/password-policy';
import { jsonBody, queryOf } from '../http/validate';
import { readIfMatch, versioned } from '../http/versions';

const NOUN = 'User';

export const userRoutes = new Hono<ProviderEnv>()
  .use(requireAuth)
  .get('/', queryOf(userListQuerySchema), async (c) => c.json(await listUsers(c.env.DB, c.req.valid('query'))))
  .post('/', requireRole('manageUsers'), jsonBody(createUserSchema), async (c) => {
    const { password, ...user } = c.req.valid('json');
    await assertNewPassword(password, user.email, 'password');
    return c.json(await insertUser(c.env.DB, { ...user, passwordHash: await hashPassword(password) }, auditContext(c)), 201);
  })
  .patch('/', requireRole('manageUsers'), jsonBody(updateUserSchema), async (c) => {
    const version = readIfMatch(c);
    const { id, password, ...changes } = c.req.valid('json');
    if (password !== undefined) {
      // An admin's reset meets the same rules as a person's own change.
      await assertNewPassword(password, changes.email ?? foundOr404(await findUser(c.env.DB, id), NOUN).email, 'password');
    }
    const passwordHash = password === undefined ? undefined : await hashPassword(password);
    const updated = await editUser(c.env.DB, id, { ...changes, passwordHash }, auditContext(c), version);
    return versioned(c, foundOr404(updated, NOUN).user);
  })
  .patch('/profile', jsonBody(profileSchema), async (c) => {
    const version = readIfMatch(c);
    const { id, ...profile } = c.req.valid('json');
    assertSelf(c.get('userId'), id);
    return versioned(c, foundOr404(await updateUser(c.env.DB, id, profile, auditContext(c), { version }), NOUN).user);
  })
  .patch('/change-password', jsonBody(changePasswordSchema), async (c) => {
    const { id, newPassword } = c.req.valid('json');
    assertSelf(c.get('userId'), id);
    await assertNewPassword(newPassword, foundOr404(await findUser(c.env.DB, id), NOUN).email, 'newPassword');
    const updated = foundOr404(
      await updateUser(c.env.DB, id, { passwordHash: await hashPassword(newPassword) }, auditContext(c), { action: 'password' }),
      NOUN,
    );
    // The change ended every session of this user, this one too; the fresh token keeps it going.
    const token = await issueToken(
      { id, sessionVersion: updated.sessionVersion },
      { secret: c.env.JWT_SECRET, audience: c.env.APP_AUDIENCE },
    );
    return c.json<ChangePasswordResponse>({ message: 'Password changed', token });
  })
  .get('/:id', async (c) => versioned(c, foundOr404(await findUser(c.env.DB, readId(c)), NOUN)));
