import { Hono } from 'hono';
import { recordId } from '../../../shared/schemas/fields';
import { listQuerySchema } from '../../../shared/schemas/list';
import { changePasswordSchema, createUserSchema, profileSchema, updateUserSchema } from '../../../shared/schemas/users';
import { hashPassword } from '../auth/password';
import { findUser, insertUser, listUsers, updatePasswordHash, updateUser } from '../db/users';
import { assertSelf, requireAuth, type ProviderEnv } from '../http/auth';
import { badRequest, notFound } from '../http/errors';
import { readBody, readParam, readQuery } from '../http/validate';

const userId = recordId().typeError('id must be a number').required();
const found = <T>(value: T | null) => {
  if (value === null) throw notFound('User not found');
  return value;
};

export const userRoutes = new Hono<ProviderEnv>()
  .use(requireAuth)
  .get('/', async (c) => c.json(await listUsers(c.env.DB, await readQuery(c, listQuerySchema))))
  .post('/', async (c) => {
    const { password, ...user } = await readBody(c, createUserSchema);
    return c.json(await insertUser(c.env.DB, { ...user, passwordHash: await hashPassword(password) }), 201);
  })
  .patch('/', async (c) => {
    const { id, ...changes } = await readBody(c, updateUserSchema);
    if (id === c.get('user').id && changes.isActive === false) {
      throw badRequest('You cannot deactivate your own account');
    }
    return c.json(found(await updateUser(c.env.DB, id, changes)));
  })
  .patch('/profile', async (c) => {
    const { id, ...profile } = await readBody(c, profileSchema);
    assertSelf(c.get('user'), id);
    return c.json(found(await updateUser(c.env.DB, id, profile)));
  })
  .patch('/change-password', async (c) => {
    const { id, newPassword } = await readBody(c, changePasswordSchema);
    assertSelf(c.get('user'), id);
    await updatePasswordHash(c.env.DB, id, await hashPassword(newPassword));
    return c.json({ message: 'Password changed' });
  })
  .get('/:id', async (c) => c.json(found(await findUser(c.env.DB, await readParam(c, 'id', userId)))));
