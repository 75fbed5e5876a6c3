import { Hono } from 'hono';
import { changePasswordSchema, createUserSchema, profileSchema, updateUserSchema, userListQuerySchema } from '../../../shared/schemas/users';
import type { ChangePasswordResponse } from '../../../shared/types';
import { hashPassword } from '../auth/password';
import { issueToken } from '../auth/token';
import { findUser, insertUser, listUsers, updateUser } from '../db/users';
import { auditContext } from '../http/audit-context';
import { assertSelf, requireAuth, requireRole, type ProviderEnv } from '../http/auth';
import { badRequest } from '../http/errors';
import { foundOr404, readId } from '../http/params';
import { assertNewPassword } from '../http/password-policy';
import { readBody, readQuery } from '../http/validate';
import { readIfMatch, versioned } from '../http/versions';

const NOUN = 'User';

export const userRoutes = new Hono<ProviderEnv>()
  .use(requireAuth)
  .get('/', async (c) => c.json(await listUsers(c.env.DB, await readQuery(c, userListQuerySchema))))
  .post('/', requireRole('manageUsers'), async (c) => {
    const { password, ...user } = await readBody(c, createUserSchema);
    await assertNewPassword(password, user.email, 'password');
    return c.json(await insertUser(c.env.DB, { ...user, passwordHash: await hashPassword(password) }, auditContext(c)), 201);
  })
  .patch('/', requireRole('manageUsers'), async (c) => {
    const version = readIfMatch(c);
    const { id, password, ...changes } = await readBody(c, updateUserSchema);
    if (id === c.get('userId') && changes.isActive === false) {
      throw badRequest('You cannot deactivate your own account');
    }
    if (password !== undefined) {
      // An admin's reset meets the same rules as a person's own change.
      await assertNewPassword(password, changes.email ?? foundOr404(await findUser(c.env.DB, id), NOUN).email, 'password');
    }
    const passwordHash = password === undefined ? undefined : await hashPassword(password);
    // A PATCH that only resets the password reads as a password entry in the user's history.
    const action = passwordHash !== undefined && Object.values(changes).every((value) => value === undefined) ? 'password' : 'update';
    const updated = await updateUser(c.env.DB, id, { ...changes, passwordHash }, auditContext(c), { action, version });
    return versioned(c, foundOr404(updated, NOUN).user);
  })
  .patch('/profile', async (c) => {
    const version = readIfMatch(c);
    const { id, ...profile } = await readBody(c, profileSchema);
    assertSelf(c.get('userId'), id);
    return versioned(c, foundOr404(await updateUser(c.env.DB, id, profile, auditContext(c), { version }), NOUN).user);
  })
  .patch('/change-password', async (c) => {
    const { id, newPassword } = await readBody(c, changePasswordSchema);
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
