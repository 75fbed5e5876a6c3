/**
 * Inserts many rows as literal multi-row INSERTs run by one exec call. Through the local
 * platform proxy each prepared statement is a round trip of several milliseconds, so seeding
 * and restoring go this way. Every value is quoted here; exec splits statements on line
 * breaks, so line breaks inside values are written as char(10) and char(13).
 */
const ROWS_PER_STATEMENT = 200;

const literal = (value: unknown): string => {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`cannot store the number ${value}`);
    return String(value);
  }
  if (typeof value === 'boolean') return value ? '1' : '0';
  const text = String(value).replace(/'/g, "''").replace(/\r/g, "' || char(13) || '").replace(/\n/g, "' || char(10) || '");
  return `'${text}'`;
};

const identifier = (name: string) => {
  if (!/^[a-z_][a-z0-9_]*$/i.test(name)) throw new Error(`not a column name: ${name}`);
  return name;
};

export const insertRows = async (db: D1Database, table: string, columns: string[], rows: unknown[][]) => {
  const names = columns.map(identifier).join(', ');
  const statements: string[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const tuples = rows.slice(i, i + ROWS_PER_STATEMENT).map((row) => `(${row.map(literal).join(', ')})`);
    statements.push(`INSERT INTO ${identifier(table)} (${names}) VALUES ${tuples.join(', ')};`);
  }
  if (statements.length) await db.exec(statements.join('\n'));
};
