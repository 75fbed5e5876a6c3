import type { AuditEntity, Versioned } from '../../../shared/types';
import type { ListQuery } from '../../../shared/schemas/list';
import { nameKey } from '../../../shared/schemas/text';
import { Conflict } from '../errors/domain';
import { readPage } from './pagination';
import { toCompany, toTicketCategory, written } from './rows';
import { auditCreated, auditDeleted, auditUpdated, jsonColumn, jsonFlag, type AuditContext, type AuditFields } from './audit';
import { assignments, containsSql, insertSql, uniqueOrConflict, valuesOf, whereSql, type UniqueField } from './sql';
import { unlessStale, updateRecord, versionMatches } from './versions';

/** What differs between the lookup tables; the list, read, write and delete logic is shared. */
interface LookupSpec<R, T> {
  table: string;
  entity: AuditEntity;
  noun: string;
  /** API field → column, for the writable fields. */
  columns: Record<string, string>;
  toApi: (row: R) => T;
  /** Tables whose rows point at a lookup row, which then cannot be deleted. */
  usedBy: { table: string; column: string; noun: string }[];
  /** What reads list and answer from, when the answer names joined rows (a policy's calendar): a `(SELECT …) alias`. */
  source?: string;
  orderBy?: string;
  /** Fields stored otherwise than the API gives them (a list as JSON text). */
  encode?: (fields: Record<string, unknown>) => Record<string, unknown>;
  /** Audit values of fields not stored as plain columns, by field. */
  auditFields?: AuditFields;
  /** A unique constraint besides the name's: the column its failure names, and what to say then. */
  otherUnique?: { column: string; field: string; detail: (db: D1Database, values: Record<string, unknown>) => Promise<string> };
}

// The name's look-alike-proof key is written in the same INSERT or UPDATE as the name, where the
// UNIQUE index on name_key refuses a twin even when two requests race.
const withNameKey = (fields: Record<string, unknown>) =>
  typeof fields.name === 'string' ? { ...fields, nameKey: nameKey(fields.name) } : fields;

export const lookupStore = <R, T extends Versioned>(spec: LookupSpec<R, T>) => {
  const taken: UniqueField = { field: 'name', detail: `A ${spec.noun} with this name already exists` };
  const columns = { ...spec.columns, nameKey: 'name_key' };
  const fields: AuditFields = {
    ...Object.fromEntries(Object.entries(spec.columns).map(([field, column]) => [field, field === 'isActive' ? jsonFlag(column) : jsonColumn(column)])),
    ...spec.auditFields,
  };
  const target = { entity: spec.entity, table: spec.table, fields };
  const stored = (values: Record<string, unknown>) => withNameKey(spec.encode ? spec.encode(values) : values);
  /** The write, a failed unique constraint said as the field it guards. */
  const unique = async <W>(db: D1Database, values: Record<string, unknown>, write: Promise<W>) => {
    const other = spec.otherUnique;
    try {
      return await write;
    } catch (error) {
      if (other && error instanceof Error && error.message.includes(`UNIQUE constraint failed: ${other.column}`)) {
        const detail = await other.detail(db, values);
        throw new Conflict(detail, { [other.field]: [detail] });
      }
      return uniqueOrConflict(Promise.reject(error), taken);
    }
  };
  /** SQL true while no row refers to the row whose id is the parameter `id`. */
  const unused = (id: string) => spec.usedBy.map(({ table, column }) => `NOT EXISTS (SELECT 1 FROM ${table} WHERE ${column} = ${id})`).join(' AND ') || '1';
  /** The nouns of the tables whose rows refer to the row, in one SELECT. */
  const usedBy = async (db: D1Database, id: number) => {
    if (!spec.usedBy.length) return [];
    const checks = spec.usedBy.map(({ table, column }, i) => `EXISTS (SELECT 1 FROM ${table} WHERE ${column} = ?1) AS u${i}`).join(', ');
    const row = await db.prepare(`SELECT ${checks}`).bind(id).first<Record<string, number>>();
    return spec.usedBy.filter((_, i) => row?.[`u${i}`] === 1).map((use) => use.noun);
  };
  const source = spec.source ?? spec.table;
  const get = async (db: D1Database, id: number) => {
    const row = await db.prepare(`SELECT * FROM ${source} WHERE id = ?1`).bind(id).first<R>();
    return row ? spec.toApi(row) : null;
  };
  /** The answer for a written row: the row itself, or read again through `source` for its joined names. */
  const answer = async (db: D1Database, row: R & { id: number }) => (spec.source ? written(await get(db, row.id), spec.noun) : spec.toApi(row));
  return {
    list: async (db: D1Database, query: ListQuery) => {
      const { q } = query;
      const list = {
        select: `SELECT * FROM ${source}`,
        counted: source,
        orderBy: spec.orderBy ?? 'name COLLATE NOCASE, id',
        ...whereSql([q && ((bind) => containsSql('name', bind(q)))]),
      };
      return (await readPage(db, list, query, (rows: R[]) => rows.map(spec.toApi))).page;
    },

    get,

    insert: async (db: D1Database, values: Record<string, unknown>, audit: AuditContext) => {
      const list = assignments(stored(values), columns);
      const [inserted] = await unique(
        db,
        values,
        db.batch<R & { id: number }>([db.prepare(insertSql(spec.table, list)).bind(...valuesOf(list)), auditCreated(db, audit, target)]),
      );
      return answer(db, written(inserted?.results[0], spec.noun));
    },

    /** Null when the id is unknown; with `version` (If-Match), StaleVersion when the row moved on from it. */
    update: async (db: D1Database, id: number, changes: Record<string, unknown>, audit: AuditContext, version?: number) => {
      const where = [versionMatches(version)];
      const [, updated] = await unique(
        db,
        changes,
        db.batch<R & { id: number }>([
          auditUpdated(db, audit, { ...target, id, values: changes, where }),
          updateRecord(db, { table: spec.table, id, set: assignments(stored(changes), columns), where, returning: '*' }),
        ]),
      );
      const row = updated?.results[0];
      if (row) return answer(db, row);
      unlessStale(await get(db, id), version);
      return null;
    },

    usedBy: (db: D1Database, id: number) => usedBy(db, id),

    /**
     * Deletes an unused row; false when the id is unknown, 409 while other rows refer to it. The
     * rule is part of the DELETE (and its entry's) WHERE, so a ticket added to the row at the same
     * moment either blocks the delete or is refused by its foreign key; usage is read afterwards
     * only to name it in the message.
     */
    remove: async (db: D1Database, id: number, audit: AuditContext) => {
      const [, deleted] = await db.batch([
        auditDeleted(db, audit, { ...target, id, where: [unused('r.id')] }),
        db.prepare(`DELETE FROM ${spec.table} WHERE id = ?1 AND ${unused('?1')}`).bind(id),
      ]);
      if ((deleted?.meta.changes ?? 0) > 0) return true;
      const uses = await usedBy(db, id);
      if (uses.length) throw new Conflict(`This ${spec.noun} is still used by ${uses.join(' and ')}`);
      return false;
    },
  };
};

/** One lookup table's calls, answering in its API shape `T`. */
export type LookupStore<T extends Versioned> = ReturnType<typeof lookupStore<unknown, T>>;

export const companies = lookupStore({
  table: 'companies',
  entity: 'company',
  noun: 'company',
  columns: { name: 'name', code: 'code', email: 'email', phone: 'phone', address: 'address', emailDomains: 'email_domains', isActive: 'is_active' },
  toApi: toCompany,
  encode: ({ emailDomains, ...fields }) => (emailDomains === undefined ? fields : { ...fields, emailDomains: JSON.stringify(emailDomains) }),
  auditFields: { emailDomains: 'r.email_domains' },
  otherUnique: { column: 'company_email_domains.domain', field: 'emailDomains', detail: domainsTaken },
  usedBy: [
    { table: 'tickets', column: 'company_id', noun: 'tickets' },
    { table: 'invoice_lines', column: 'company_id', noun: 'invoice lines' },
    { table: 'statements', column: 'company_id', noun: 'statements' },
    { table: 'sla_policies', column: 'company_id', noun: 'service-level policies' },
  ],
});

/** Which of the domains another company holds, by name: the message for a refused save. */
async function domainsTaken(db: D1Database, values: Record<string, unknown>) {
  const held = await db
    .prepare('SELECT d.domain, c.name FROM company_email_domains d JOIN companies c ON c.id = d.company_id WHERE d.domain IN (SELECT value FROM json_each(?1)) ORDER BY d.domain LIMIT 1')
    .bind(JSON.stringify(values.emailDomains ?? []))
    .first<{ domain: string; name: string }>();
  return held ? `${held.domain} already belongs to ${held.name}` : 'A mail domain already belongs to another company';
}

export const ticketCategories = lookupStore({
  table: 'ticket_categories',
  entity: 'ticket_category',
  noun: 'ticket category',
  columns: { name: 'name', description: 'description', isActive: 'is_active' },
  toApi: toTicketCategory,
  usedBy: [
    { table: 'tickets', column: 'category_id', noun: 'tickets' },
    { table: 'sla_policies', column: 'category_id', noun: 'service-level policies' },
  ],
});
