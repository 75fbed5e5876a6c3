import { Invalid } from '../errors/domain';

const REFERENCES = {
  companyId: { table: 'companies', noun: 'company' },
  categoryId: { table: 'ticket_categories', noun: 'ticket category' },
  assigneeId: { table: 'users', noun: 'user' },
  userId: { table: 'users', noun: 'user' },
  calendarId: { table: 'calendars', noun: 'calendar' },
} as const;

type Reference = keyof typeof REFERENCES;

/** A 400 naming each field that points at a row that does not exist. */
export const assertReferencesExist = async (db: D1Database, fields: Partial<Record<Reference, number | null | undefined>>) => {
  const given = (Object.entries(fields) as [Reference, number | null | undefined][]).filter(
    (entry): entry is [Reference, number] => typeof entry[1] === 'number',
  );
  if (!given.length) return;
  const found = await db.batch(
    given.map(([field, id]) => db.prepare(`SELECT 1 FROM ${REFERENCES[field].table} WHERE id = ?1`).bind(id)),
  );
  const errors: Record<string, string[]> = {};
  given.forEach(([field], i) => {
    if (!found[i]?.results.length) errors[field] = [`Unknown ${REFERENCES[field].noun}`];
  });
  const [first] = Object.entries(errors);
  if (first) throw new Invalid(`${first[0]}: ${first[1][0]}`, errors);
};
