import { Hono } from 'hono';
import type { AnyObject, ObjectSchema } from 'yup';
import type { Permission } from '../../../shared/permissions';
import { listQuerySchema } from '../../../shared/schemas/list';
import {
  createCompanySchema,
  createTicketCategorySchema,
  updateCompanySchema,
  updateTicketCategorySchema,
} from '../../../shared/schemas/lookups';
import { companies, ticketCategories, type LookupStore } from '../db/lookups';
import { auditContext } from '../http/audit-context';
import { requireAuth, requireRole, type ProviderEnv } from '../http/auth';
import { foundOr404, readId } from '../http/params';
import { readBody, readQuery } from '../http/validate';
import { readIfMatch, versioned } from '../http/versions';

/** List, create, read, edit and delete for one lookup table; every role reads, admins write. */
const lookupRoutes = (store: LookupStore, noun: string, permission: Permission, create: ObjectSchema<AnyObject>, update: ObjectSchema<AnyObject>) => {
  const adminOnly = requireRole(permission);
  return new Hono<ProviderEnv>()
    .use(requireAuth)
    .get('/', async (c) => c.json(await store.list(c.env.DB, await readQuery(c, listQuerySchema))))
    .post('/', adminOnly, async (c) => c.json(await store.insert(c.env.DB, await readBody(c, create), auditContext(c)), 201))
    .get('/:id', async (c) => versioned(c, foundOr404(await store.get(c.env.DB, readId(c)), noun)))
    .patch('/:id', adminOnly, async (c) => {
      const id = readId(c);
      const version = readIfMatch(c);
      return versioned(c, foundOr404(await store.update(c.env.DB, id, await readBody(c, update), auditContext(c), version), noun));
    })
    .delete('/:id', adminOnly, async (c) => {
      foundOr404((await store.remove(c.env.DB, readId(c), auditContext(c))) || null, noun);
      return c.body(null, 204);
    });
};

export const companyRoutes = lookupRoutes(companies, 'Company', 'manageCompanies', createCompanySchema, updateCompanySchema);
export const ticketCategoryRoutes = lookupRoutes(
  ticketCategories,
  'Ticket category',
  'manageTicketCategories',
  createTicketCategorySchema,
  updateTicketCategorySchema,
);
