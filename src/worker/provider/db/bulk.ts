/**
 * Many rows as literal multi-row INSERTs: no bound parameters (D1 allows 100 per statement) and
 * each statement kept under D1's 100 KB of SQL, so the same text runs through the D1 binding and
 * through `wrangler d1 execute --file`. Through the local platform proxy every call is a round
 * trip of several milliseconds, so seeding and restoring go this way. Every value is quoted
 * here. exec splits statements on line breaks, so text holding a line break is written as its
 * UTF-8 bytes in hex, `CAST(X'…' AS TEXT)`: one term however many breaks it has, where joining
 * `char(10)` pieces made an expression one level deeper per break and D1 refuses depth 100.
 */
export const MAX_STATEMENT_BYTES = 100_000;
/**
 * What a statement is filled to: its head and tuples are counted as they go in (a tuple with its
 * separator), so the statement stays under the limit; a little room is left for rounding.
 */
const FILL_BYTES = 99_000;

const encoder = new TextEncoder();
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
const hex = (bytes: Uint8Array) => {
  let out = '';
  for (const byte of bytes) out += HEX[byte];
  return out;
};

const LINE_BREAK = /[\r\n]/;
const QUOTE = /'/g;

const textLiteral = (text: string) => {
  if (LINE_BREAK.test(text)) return `CAST(X'${hex(encoder.encode(text))}' AS TEXT)`;
  // Most text holds no quote; replace() would copy it anyway.
  return text.includes("'") ? `'${text.replace(QUOTE, "''")}'` : `'${text}'`;
};

/** A value as an SQL literal. Text first: a restore writes millions of values, most of them text. */
export const sqlLiteral = (value: unknown): string => {
  if (typeof value === 'string') return textLiteral(value);
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`cannot store the number ${value}`);
    return String(value);
  }
  if (typeof value === 'boolean') return value ? '1' : '0';
  return textLiteral(String(value));
};

const identifier = (name: string) => {
  if (!/^[a-z_][a-z0-9_]*$/i.test(name)) throw new Error(`not a column name: ${name}`);
  return name;
};

// Printable ASCII, nearly every tuple, has as many bytes as characters; only the rest is encoded.
const byteLength = (text: string) => (/[^ -~]/.test(text) ? encoder.encode(text).byteLength : text.length);

/**
 * INSERT statements for one table built a row at a time (values in `columns` order), each as many
 * tuples as fit in FILL_BYTES and at most `maxRows`. A row too long for one statement is refused:
 * D1 would refuse it anyway.
 */
export const insertBuilder = (table: string, columns: string[], maxRows = Infinity) => {
  const head = `INSERT INTO ${identifier(table)} (${columns.map(identifier).join(', ')}) VALUES `;
  // The statement grows by concatenation, no array of tuples to join: fewer strings per row.
  let statement = '';
  let bytes = head.length;
  let rows = 0;
  /** The statement so far, ended; null if it holds no row yet. */
  const end = () => {
    const done = statement ? `${statement};` : null;
    statement = '';
    bytes = head.length;
    rows = 0;
    return done;
  };
  return {
    /** Adds a row; returns the statement the rows before it made, should the row not fit in it. */
    add: (row: unknown[]): string | null => {
      let tuple = '(';
      // No space after the commas: every byte is carried through the local proxy and parsed.
      for (let i = 0; i < row.length; i += 1) tuple += i ? `,${sqlLiteral(row[i])}` : sqlLiteral(row[i]);
      tuple += ')';
      const size = byteLength(tuple) + 1;
      if (head.length + size > MAX_STATEMENT_BYTES) throw new Error(`a row of ${table} is longer than one D1 statement may be (${size} bytes)`);
      const done = statement && (bytes + size > FILL_BYTES || rows >= maxRows) ? end() : null;
      statement = statement ? `${statement},${tuple}` : `${head}${tuple}`;
      bytes += size;
      rows += 1;
      return done;
    },
    end,
  };
};

export type InsertBuilder = ReturnType<typeof insertBuilder>;

/** The INSERT statements for `rows` (values in `columns` order), as insertBuilder makes them. */
export function* insertStatements(table: string, columns: string[], rows: Iterable<unknown[]>): Generator<string> {
  const builder = insertBuilder(table, columns);
  for (const row of rows) {
    const done = builder.add(row);
    if (done) yield done;
  }
  const last = builder.end();
  if (last) yield last;
}

export const insertRows = async (db: D1Database, table: string, columns: string[], rows: unknown[][]) => {
  const statements = [...insertStatements(table, columns, rows)];
  if (statements.length) await db.exec(statements.join('\n'));
};

/**
 * A statement with its numbered parameters (?1, ?2, …) written in as literals, for
 * `wrangler d1 execute`, which takes no parameters. Only for SQL built by this code base, whose
 * text holds no `?` but its placeholders.
 */
export const inlineParams = ({ sql, params }: { sql: string; params: unknown[] }) =>
  sql.replace(/\?(\d+)/g, (_, n: string) => {
    const index = Number(n) - 1;
    if (index >= params.length) throw new Error(`no value for ?${n}`);
    return sqlLiteral(params[index]);
  });
