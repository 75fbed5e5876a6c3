import { statementNumber, type Ledger } from '../../../shared/schemas/invoices';
import type { AuditEntity, AuditEntry } from '../../../shared/types';
import { rowsOf } from './rows';
import { fullName } from './sql';

/**
 * Names for the records a page of audit entries mentions, so the log reads "Ada Admin" and
 * "GIFS-2026-10-1" rather than ids (docs/architecture.md#roles-and-the-audit-log). Every record
 * named here is one each role may read on its own page (every list is open to every signed-in
 * user), so a name tells the reader nothing the record itself would not.
 */
type Kind = 'user' | 'company' | 'category' | 'statement' | 'ticket' | 'timesheet';

// One SELECT per kind, each given the ids as one JSON array (one parameter however many ids).
const LOOKUPS: Record<Kind, string> = {
  user: `SELECT id, ${fullName()} AS name FROM users WHERE id IN (SELECT value FROM json_each(?1))`,
  company: 'SELECT id, name FROM companies WHERE id IN (SELECT value FROM json_each(?1))',
  category: 'SELECT id, name FROM ticket_categories WHERE id IN (SELECT value FROM json_each(?1))',
  statement: 'SELECT id, period, sequence, ledger FROM statements WHERE id IN (SELECT value FROM json_each(?1))',
  ticket: `SELECT id, '#' || id || ' ' || title AS name FROM tickets WHERE id IN (SELECT value FROM json_each(?1))`,
  // A person's week: "Ada Admin, 2026-W47".
  timesheet: `SELECT w.id, ${fullName('u')} || ', ' || w.week AS name FROM timesheet_weeks w JOIN users u ON u.id = w.user_id
              WHERE w.id IN (SELECT value FROM json_each(?1))`,
};
const KINDS = Object.keys(LOOKUPS) as Kind[];

const ENTITY_KINDS: Partial<Record<AuditEntity, Kind>> = {
  user: 'user',
  session: 'user',
  company: 'company',
  ticket_category: 'category',
  statement: 'statement',
  ticket: 'ticket',
  timesheet: 'timesheet',
};

/** The fields of `changes` that hold another record's id. */
const FIELD_KINDS: Record<string, Kind> = {
  companyId: 'company',
  categoryId: 'category',
  assigneeId: 'user',
  reporterId: 'user',
  statementId: 'statement',
};

interface NameRow {
  id: number;
  name?: string;
  period?: string;
  sequence?: number;
  ledger?: Ledger;
}

const nameOf = (row: NameRow) =>
  row.period !== undefined && row.sequence !== undefined ? statementNumber(row.period, row.sequence, row.ledger) : (row.name ?? '');

const idsIn = (pair: [unknown, unknown]) => pair.filter((value): value is number => typeof value === 'number' && Number.isSafeInteger(value));

/** A deleted company or category is gone from its table; its delete entry still holds the name. */
const deletedName = (entry: AuditEntry) => {
  const name = entry.action === 'delete' ? entry.changes.name?.[0] : undefined;
  return typeof name === 'string' ? name : null;
};

/** The entries with `recordName` and `names` filled in, read in one batch of at most six SELECTs. */
export const nameAuditEntries = async (db: D1Database, entries: AuditEntry[]): Promise<AuditEntry[]> => {
  const wanted = new Map<Kind, Set<number>>(KINDS.map((kind) => [kind, new Set()]));
  for (const entry of entries) {
    const kind = ENTITY_KINDS[entry.entity];
    if (kind && entry.entityId) wanted.get(kind)?.add(entry.entityId);
    for (const [field, pair] of Object.entries(entry.changes)) {
      const fieldKind = FIELD_KINDS[field];
      if (fieldKind) for (const id of idsIn(pair)) wanted.get(fieldKind)?.add(id);
    }
  }
  const asked = KINDS.filter((kind) => (wanted.get(kind)?.size ?? 0) > 0);
  const results = asked.length ? await db.batch(asked.map((kind) => db.prepare(LOOKUPS[kind]).bind(JSON.stringify([...(wanted.get(kind) ?? [])])))) : [];
  const found = new Map<Kind, Map<number, string>>(KINDS.map((kind) => [kind, new Map()]));
  asked.forEach((kind, index) => {
    for (const row of rowsOf<NameRow>(results[index])) found.get(kind)?.set(row.id, nameOf(row));
  });
  const lookUp = (kind: Kind, id: number) => found.get(kind)?.get(id);

  return entries.map((entry) => {
    const kind = ENTITY_KINDS[entry.entity];
    const names: Record<string, Record<string, string>> = {};
    for (const [field, pair] of Object.entries(entry.changes)) {
      const fieldKind = FIELD_KINDS[field];
      if (!fieldKind) continue;
      for (const id of idsIn(pair)) {
        const name = lookUp(fieldKind, id);
        if (name !== undefined) names[field] = { ...names[field], [id]: name };
      }
    }
    const recordName = (kind && entry.entityId ? lookUp(kind, entry.entityId) : undefined) ?? deletedName(entry);
    return { ...entry, recordName, names };
  });
};
