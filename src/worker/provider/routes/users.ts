import { Hono } from 'hono';
import { changePasswordSchema, createUserSchema, profileSchema, updateUserSchema, userListQuerySchema } from '../../../shared/schemas/users';
import { hashPassword } from '../auth/password';
import { findUser, insertUser, listUsers, updatePasswordHash, updateUser } from '../db/users';
import { assertSelf, requireAuth, type ProviderEnv } from '../http/auth';
import { badRequest } from '../http/errors';
import { foundOr404, readId } from '../http/params';
import { assertNewPassword } from '../http/password-policy';
import { readBody, readQuery } from '../http/validate';

const NOUN = 'User';

export const userRoutes = new Hono<ProviderEnv>()
  .use(requireAuth)
  .get('/', async (c) => c.json(await listUsers(c.env.DB, await readQuery(c, userListQuerySchema))))
  .post('/', async (c) => {
    const { password, ...user } = await readBody(c, createUserSchema);
    await assertNewPassword(password, user.email, 'password');
    return c.json(await insertUser(c.env.DB, { ...user, passwordHash: await hashPassword(password) }), 201);
  })
  .patch('/', async (c) => {
    const { id, ...changes } = await readBody(c, updateUserSchema);
    if (id === c.get('userId') && changes.isActive === false) {
      throw badRequest('You cannot deactivate your own account');
    }
    return c.json(foundOr404(await updateUser(c.env.DB, id, changes), NOUN));
  })
  .patch('/profile', async (c) => {
    const { id, ...profile } = await readBody(c, profileSchema);
    assertSelf(c.get('userId'), id);
    return c.json(foundOr404(await updateUser(c.env.DB, id, profile), NOUN));
  })
  .patch('/change-password', async (c) => {
    const { id, newPassword } = await readBody(c, changePasswordSchema);
    assertSelf(c.get('userId'), id);
    await assertNewPassword(newPassword, foundOr404(await findUser(c.env.DB, id), NOUN).email, 'newPassword');
    await updatePasswordHash(c.env.DB, id, await hashPassword(newPassword));
    return c.json({ message: 'Password changed' });
  })
  .get('/:id', async (c) => c.json(foundOr404(await findUser(c.env.DB, readId(c)), NOUN)));
