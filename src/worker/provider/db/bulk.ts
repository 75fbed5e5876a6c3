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
/** Room left under the limit for the statement's head and the tuple that crosses the line. */
const FILL_BYTES = 90_000;

const encoder = new TextEncoder();
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
const hex = (bytes: Uint8Array) => {
  let out = '';
  for (const byte of bytes) out += HEX[byte];
  return out;
};

/** A value as an SQL literal. */
export const sqlLiteral = (value: unknown): string => {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`cannot store the number ${value}`);
    return String(value);
  }
  if (typeof value === 'boolean') return value ? '1' : '0';
  const text = String(value);
  if (/[\r\n]/.test(text)) return `CAST(X'${hex(encoder.encode(text))}' AS TEXT)`;
  return `'${text.replace(/'/g, "''")}'`;
};

const identifier = (name: string) => {
  if (!/^[a-z_][a-z0-9_]*$/i.test(name)) throw new Error(`not a column name: ${name}`);
  return name;
};

// Printable ASCII, nearly every tuple, has as many bytes as characters; only the rest is encoded.
const byteLength = (text: string) => (/[^ -~]/.test(text) ? encoder.encode(text).byteLength : text.length);

/**
 * The INSERT statements for `rows` (values in `columns` order), each as many tuples as fit in
 * FILL_BYTES. A row too long for one statement is refused: D1 would refuse it anyway.
 */
export function* insertStatements(table: string, columns: string[], rows: Iterable<unknown[]>): Generator<string> {
  const head = `INSERT INTO ${identifier(table)} (${columns.map(identifier).join(', ')}) VALUES `;
  let tuples: string[] = [];
  let bytes = head.length;
  for (const row of rows) {
    const tuple = `(${row.map(sqlLiteral).join(', ')})`;
    const size = byteLength(tuple) + 2;
    if (tuples.length && bytes + size > FILL_BYTES) {
      yield `${head}${tuples.join(', ')};`;
      tuples = [];
      bytes = head.length;
    }
    if (head.length + size > MAX_STATEMENT_BYTES) throw new Error(`a row of ${table} is longer than one D1 statement may be (${size} bytes)`);
    tuples.push(tuple);
    bytes += size;
  }
  if (tuples.length) yield `${head}${tuples.join(', ')};`;
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
