import { Conflict } from '../errors/domain';

/** The ISO 8601 UTC time SQLite writes, matching the columns' defaults. */
export const NOW_SQL = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/** A person's name as every answer shows it, from the users row `alias` (or the only one). */
export const fullName = (alias?: string) => (alias ? `${alias}.first_name || ' ' || ${alias}.surname` : "first_name || ' ' || surname");

/** `text` with LIKE's wildcards taken literally; the statement says ESCAPE '\'. */
export const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

// D1 refuses a LIKE pattern longer than 50 bytes (docs/operations.md#limits), and people search
// with up to 200 characters, so typed text never goes into a LIKE pattern whole.
const MAX_LIKE_PATTERN_BYTES = 50;
const encoder = new TextEncoder();

/** The longest start of `text` whose pattern, wildcards escaped and `%` after, fits D1's limit. */
export const likePrefixPattern = (text: string) => {
  let pattern = '';
  let bytes = 1;
  for (const ch of text) {
    const literal = likeLiteral(ch);
    const size = encoder.encode(literal).byteLength;
    if (bytes + size > MAX_LIKE_PATTERN_BYTES) break;
    pattern += literal;
    bytes += size;
  }
  return `${pattern}%`;
};

/**
 * `column` holds the bound text anywhere, ASCII letters in either case as LIKE matches them. A
 * plain substring search, so neither the text's length nor its `%` and `_` matter.
 */
export const containsSql = (column: string, text: string) => `instr(lower(${column}), lower(${text})) > 0`;

/**
 * `column` starts with `text`, ASCII letters in either case: a LIKE on the start of the text that
 * fits D1's pattern limit (an index on the column can serve it), then the whole text compared.
 */
export const startsWithSql = (column: string, bind: Bind, text: string) => {
  const prefix = bind(likePrefixPattern(text));
  const whole = bind(text);
  return `(${column} LIKE ${prefix} ESCAPE '\\' AND lower(substr(${column}, 1, length(${whole}))) = lower(${whole}))`;
};

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

export interface Assignment {
  column: string;
  value: unknown;
}

/** The given API fields as column assignments; fields left undefined are left out. */
export const assignments = (fields: object, columns: Record<string, string>): Assignment[] =>
  Object.entries(fields)
    .filter(([key, value]) => value !== undefined && columns[key] !== undefined)
    .map(([key, value]) => ({ column: columns[key] as string, value: typeof value === 'boolean' ? Number(value) : value }));

export const insertSql = (table: string, list: Assignment[]) =>
  `INSERT INTO ${table} (${list.map(({ column }) => column).join(', ')}) VALUES (${list.map((_, i) => `?${i + 1}`).join(', ')}) RETURNING *`;

export const valuesOf = (list: Assignment[]) => list.map(({ value }) => value);

/** SQL with numbered parameters (?1, ?2, …) and their values. */
export interface SqlStatement {
  sql: string;
  params: unknown[];
}

/** Adds a value to a statement's parameters and answers its placeholder (`?3`). */
export type Bind = (value: unknown) => string;

// D1 refuses a statement that binds more (docs/operations.md#limits).
const MAX_PARAMS = 100;

/** A statement's parameters, starting with `first`: `bind` numbers each value it adds. */
export const parameters = (first: unknown[] = []) => {
  const params = [...first];
  const bind: Bind = (value) => {
    if (params.length >= MAX_PARAMS) throw new Error(`A statement may bind at most ${MAX_PARAMS} values`);
    return `?${params.push(value)}`;
  };
  return { params, bind };
};

/**
 * A condition on the rows a statement reads or writes: fixed SQL, or SQL written over `row` (the
 * alias or table its columns are qualified with) that binds its own values. One condition renders
 * into every statement that must agree on it, each with its own numbering and its own name for
 * the row: an UPDATE and the audit entry ahead of it, a list's page and its total.
 */
export type Condition = string | ((bind: Bind, row: string) => string);

/** `row.name`, or the bare column when `row` is empty. */
export const columnOf = (row: string, name: string) => (row ? `${row}.${name}` : name);

/** A condition, or a falsy value where a filter is not set (`query.status && …`). */
export type MaybeCondition = Condition | false | null | undefined | '' | 0;

/** The conditions that apply joined by AND, each whole; '' when none does. */
export const conditionsSql = (conditions: readonly MaybeCondition[], bind: Bind, row: string) =>
  conditions
    .filter((condition): condition is Condition => Boolean(condition))
    .map((condition) => `(${typeof condition === 'string' ? condition : condition(bind, row)})`)
    .join(' AND ');

/**
 * A list's WHERE from the filters its query sets, with their values numbered in order; an empty
 * WHERE when no filter applies. Every list builds its filters here.
 */
export const whereSql = (filters: readonly MaybeCondition[]) => {
  const { params, bind } = parameters();
  const conditions = conditionsSql(filters, bind, '');
  return { where: conditions ? `WHERE ${conditions}` : '', params };
};
