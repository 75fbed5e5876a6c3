import { Conflict } from '../errors/domain';

/** The ISO 8601 UTC time SQLite writes, matching the columns' defaults. */
export const NOW_SQL = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/** A person's name as every answer shows it, from the users row `alias` (or the only one). */
export const fullName = (alias?: string) => (alias ? `${alias}.first_name || ' ' || ${alias}.surname` : "first_name || ' ' || surname");

/** `text` with LIKE's wildcards taken literally; the statement says ESCAPE '\'. */
export const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

const isUniqueViolation = (error: unknown) => error instanceof Error && /UNIQUE constraint failed/.test(error.message);

/** The field a unique constraint guards and what to say when a value is taken. */
export interface UniqueField {
  field: string;
  detail: string;
}

/** Runs a write, turning a unique constraint failure into a Conflict saying `detail` (under `errors[field]` too when a field is named). */
export const uniqueOrConflict = async <T>(write: Promise<T>, taken: string | UniqueField): Promise<T> => {
  try {
    return await write;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw typeof taken === 'string' ? new Conflict(taken) : new Conflict(taken.detail, { [taken.field]: [taken.detail] });
  }
};

interface Assignment {
  column: string;
  value: unknown;
}

/** The given API fields as column assignments; fields left undefined are left out. */
export const assignments = (fields: Record<string, unknown>, columns: Record<string, string>): Assignment[] =>
  Object.entries(fields)
    .filter(([key, value]) => value !== undefined && columns[key] !== undefined)
    .map(([key, value]) => ({ column: columns[key] as string, value: typeof value === 'boolean' ? Number(value) : value }));

/** `a = ?2, b = ?3` from `firstParam` on, so a PATCH touches only what it names. */
export const setSql = (list: Assignment[], firstParam: number) =>
  list.map(({ column }, i) => `${column} = ?${firstParam + i}`).join(', ');

export const insertSql = (table: string, list: Assignment[]) =>
  `INSERT INTO ${table} (${list.map(({ column }) => column).join(', ')}) VALUES (${list.map((_, i) => `?${i + 1}`).join(', ')}) RETURNING *`;

export const valuesOf = (list: Assignment[]) => list.map(({ value }) => value);
