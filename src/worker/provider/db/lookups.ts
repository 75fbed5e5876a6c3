import type { AuditEntity, Company, TicketCategory, Versioned } from '../../../shared/types';
import type { ListQuery } from '../../../shared/schemas/list';
import { nameKey } from '../../../shared/schemas/text';
import { conflict } from '../http/errors';
import { containsPattern, pageOf, pageWindow } from '../http/pagination';
import { auditCreated, auditDeleted, auditUpdated, jsonColumn, jsonFlag, type AuditContext, type AuditFields } from './audit';
import { NOW_SQL, assignments, insertSql, setSql, uniqueOr409, valuesOf, type UniqueField } from './sql';
import { VERSION_BUMP, unlessStale, versionMatches } from './versions';

/** What differs between the lookup tables; the list, read, write and delete logic is shared. */
interface LookupSpec<T> {
  table: string;
  entity: AuditEntity;
  noun: string;
  /** API field → column, for the writable fields. */
  columns: Record<string, string>;
  toApi: (row: Record<string, unknown>) => T;
  /** Tables whose rows point at a lookup row, which then cannot be deleted. */
  usedBy: { table: string; column: string; noun: string }[];
}

const base = (row: Record<string, unknown>) => ({
  id: row.id as number,
  isActive: row.is_active === 1,
  createdAt: row.created_at as string,
  updatedAt: row.updated_at as string,
  version: row.version as number,
});

// The name's look-alike-proof key is written in the same INSERT or UPDATE as the name, where the
// UNIQUE index on name_key refuses a twin even when two requests race.
const withNameKey = (fields: Record<string, unknown>) =>
  typeof fields.name === 'string' ? { ...fields, nameKey: nameKey(fields.name) } : fields;

const lookupStore = <T extends Versioned>(spec: LookupSpec<T>) => {
  const taken: UniqueField = { field: 'name', detail: `A ${spec.noun} with this name already exists` };
  const columns = { ...spec.columns, nameKey: 'name_key' };
  const fields: AuditFields = Object.fromEntries(
    Object.entries(spec.columns).map(([field, column]) => [field, field === 'isActive' ? jsonFlag(column) : jsonColumn(column)]),
  );
  const target = { entity: spec.entity, table: spec.table, fields };
  const get = async (db: D1Database, id: number) => {
    const row = await db.prepare(`SELECT * FROM ${spec.table} WHERE id = ?1`).bind(id).first();
    return row ? spec.toApi(row) : null;
  };
  return {
    list: async (db: D1Database, query: ListQuery) => {
      const { limit, offset } = pageWindow(query);
      const where = query.q ? "WHERE name LIKE ?1 ESCAPE '\\'" : '';
      const params = query.q ? [containsPattern(query.q)] : [];
      const [rows, count] = await db.batch<Record<string, unknown>>([
        db.prepare(`SELECT * FROM ${spec.table} ${where} ORDER BY name COLLATE NOCASE, id LIMIT ${limit} OFFSET ${offset}`).bind(...params),
        db.prepare(`SELECT count(*) AS total FROM ${spec.table} ${where}`).bind(...params),
      ]);
      return pageOf(rows.results.map(spec.toApi), (count.results[0]?.total as number) ?? 0, query);
    },

    get,

    insert: async (db: D1Database, values: Record<string, unknown>, audit: AuditContext) => {
      const list = assignments(withNameKey(values), columns);
      const [inserted] = await uniqueOr409(
        db.batch<Record<string, unknown>>([
          db.prepare(insertSql(spec.table, list)).bind(...valuesOf(list)),
          auditCreated(db, audit, target),
        ]),
        taken,
      );
      return spec.toApi(inserted?.results[0] as Record<string, unknown>);
    },

    /** Null when the id is unknown; with `version` (If-Match), StaleVersion when the row moved on from it. */
    update: async (db: D1Database, id: number, changes: Record<string, unknown>, audit: AuditContext, version?: number) => {
      const list = assignments(withNameKey(changes), columns);
      const set = [setSql(list, 3), `updated_at = ${NOW_SQL}`, VERSION_BUMP].filter(Boolean).join(', ');
      const [, updated] = await uniqueOr409(
        db.batch<Record<string, unknown>>([
          auditUpdated(db, audit, { ...target, id, values: changes, version }),
          db
            .prepare(`UPDATE ${spec.table} SET ${set} WHERE id = ?1 AND ${versionMatches(2)} RETURNING *`)
            .bind(id, version ?? null, ...valuesOf(list)),
        ]),
        taken,
      );
      const row = updated?.results[0];
      if (row) return spec.toApi(row);
      unlessStale(await get(db, id), version);
      return null;
    },

    /** Deletes an unused row; false when the id is unknown, 409 while other rows refer to it. */
    remove: async (db: D1Database, id: number, audit: AuditContext) => {
      const uses = await db.batch<{ n: number }>(
        spec.usedBy.map(({ table, column }) => db.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${column} = ?1`).bind(id)),
      );
      const inUse = spec.usedBy.filter((_, i) => (uses[i]?.results[0]?.n ?? 0) > 0).map((use) => use.noun);
      if (inUse.length) throw conflict(`This ${spec.noun} is still used by ${inUse.join(' and ')}`);
      const [, deleted] = await db.batch([
        auditDeleted(db, audit, { ...target, id }),
        db.prepare(`DELETE FROM ${spec.table} WHERE id = ?1`).bind(id),
      ]);
      return (deleted?.meta.changes ?? 0) > 0;
    },
  };
};

export type LookupStore = ReturnType<typeof lookupStore>;

export const companies = lookupStore<Company>({
  table: 'companies',
  entity: 'company',
  noun: 'company',
  columns: { name: 'name', code: 'code', email: 'email', phone: 'phone', address: 'address', isActive: 'is_active' },
  toApi: (row) => ({
    ...base(row),
    name: row.name as string,
    code: row.code as string,
    email: row.email as string,
    phone: row.phone as string,
    address: row.address as string,
  }),
  usedBy: [
    { table: 'tickets', column: 'company_id', noun: 'tickets' },
    { table: 'invoice_lines', column: 'company_id', noun: 'invoice lines' },
    { table: 'statements', column: 'company_id', noun: 'statements' },
  ],
});

export const ticketCategories = lookupStore<TicketCategory>({
  table: 'ticket_categories',
  entity: 'ticket_category',
  noun: 'ticket category',
  columns: { name: 'name', description: 'description', isActive: 'is_active' },
  toApi: (row) => ({ ...base(row), name: row.name as string, description: row.description as string }),
  usedBy: [{ table: 'tickets', column: 'category_id', noun: 'tickets' }],
});
