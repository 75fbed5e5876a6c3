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
import type { LookupUses, Versioned } from '../../../shared/types';
import { companies, ticketCategories, type LookupStore } from '../db/lookups';
import { auditContext } from '../http/audit-context';
import { requireAuth, requireRole, type ProviderEnv } from '../http/auth';
import { foundOr404, readId } from '../http/params';
import { jsonBody, queryOf } from '../http/validate';
import { readIfMatch, versioned } from '../http/versions';

/** List, create, read, edit and delete for one lookup table; every role reads, admins write. */
export const lookupRoutes = <T extends Versioned, C extends ObjectSchema<AnyObject>, U extends ObjectSchema<AnyObject>>(
  store: LookupStore<T>,
  noun: string,
  permission: Permission,
  create: C,
  update: U,
) => {
  const adminOnly = requireRole(permission);
  return new Hono<ProviderEnv>()
    .use(requireAuth)
    .get('/', queryOf(listQuerySchema), async (c) => c.json(await store.list(c.env.DB, c.req.valid('query'))))
    .post('/', adminOnly, jsonBody(create), async (c) => c.json(await store.insert(c.env.DB, c.req.valid('json'), auditContext(c)), 201))
    .get('/:id', async (c) => versioned(c, foundOr404(await store.get(c.env.DB, readId(c)), noun)))
    // What still refers to the record, so the page can say so before anyone confirms a delete.
    .get('/:id/uses', async (c) => {
      const id = readId(c);
      foundOr404(await store.get(c.env.DB, id), noun);
      return c.json<LookupUses>({ usedBy: await store.usedBy(c.env.DB, id) });
    })
    .patch('/:id', adminOnly, jsonBody(update), async (c) => {
      const id = readId(c);
      const version = readIfMatch(c);
      return versioned(c, foundOr404(await store.update(c.env.DB, id, c.req.valid('json'), auditContext(c), version), noun));
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
