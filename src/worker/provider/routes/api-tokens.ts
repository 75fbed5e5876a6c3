import { Hono } from 'hono';
import { may } from '../../../shared/permissions';
import { apiTokenListQuerySchema, createApiTokenSchema } from '../../../shared/schemas/api-tokens';
import type { ApiToken, CreatedApiToken } from '../../../shared/types';
import { hashApiToken, newApiToken } from '../auth/api-token';
import { createApiToken, listAllApiTokens, listApiTokens, removeApiToken } from '../db/api-tokens';
import { auditContext } from '../http/audit-context';
import { assertMay, requireAuth, type ProviderEnv } from '../http/auth';
import { readId } from '../http/params';
import { jsonBody, queryOf } from '../http/validate';

/**
 * Personal API tokens (docs/api.md#api-tokens): each person's own, and for admins everyone's.
 * Only a session reaches these routes; an API token is refused by requireAuth.
 */
export const apiTokenRoutes = new Hono<ProviderEnv>()
  .use(requireAuth)
  .post('/', jsonBody(createApiTokenSchema), async (c) => {
    const token = newApiToken();
    const created = await createApiToken(
      c.env.DB,
      { ...c.req.valid('json'), tokenHash: await hashApiToken(token) },
      c.get('token').sessionVersion,
      auditContext(c),
    );
    return c.json<CreatedApiToken>({ ...created, token }, 201);
  })
  .get('/', queryOf(apiTokenListQuerySchema), async (c) => {
    if (c.req.valid('query').all) {
      await assertMay(c, 'manageAnyApiToken');
      return c.json<{ items: ApiToken[] }>({ items: await listAllApiTokens(c.env.DB) });
    }
    return c.json<{ items: ApiToken[] }>({ items: await listApiTokens(c.env.DB, c.get('userId')) });
  })
  .delete('/:id', async (c) => {
    const id = readId(c);
    const { role } = await c.get('session');
    await removeApiToken(c.env.DB, id, may(role, 'manageAnyApiToken'), auditContext(c));
    return c.body(null, 204);
  });
