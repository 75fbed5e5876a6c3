import {
  BACKUP_FORMAT,
  LEGACY_BACKUP_FORMAT,
  type BackupHeader,
  type Manifest,
  type Row,
  type Sha256,
  type Sha256Factory,
  type TableSummary,
} from './format';
import { gunzipStream } from './gzip';
import { insertBuilder, insertStatements, type InsertBuilder } from '../bulk';
import type { RestoreTarget } from './restore-target';
import { DATA_TABLES, SCHEMA_VERSION_SQL, type DataTable } from '../tables';

/** A backup that cannot be restored; the message says why, for the person running the restore. */
export class RestoreError extends Error {}

export interface RestoreSource {
  /** Opens the file from its start. A restore reads it twice: to check it, then to write it. */
  open(): Promise<ReadableStream<Uint8Array>>;
}

/** How far a restore has got, for a progress bar. */
export interface RestoreProgress {
  /** 'check': the first read, nothing written; 'write': rows written so far. */
  phase: 'check' | 'write';
  rows: number;
  /** Known once the file has been checked (its manifest), so only while writing. */
  totalRows: number | null;
  /** The table being read or written, and how many tables are done. */
  table: string;
  tablesDone: number;
  tables: number;
}

export interface RestoreOptions {
  sha256: Sha256Factory;
  /** Rows at most in one INSERT statement; by default as many as fit in D1's statement size. */
  batchRows?: number;
  onProgress?: (progress: RestoreProgress) => void;
}

/** How often the check reports progress, in rows. */
const CHECK_REPORT_ROWS = 50_000;
/** No line of a backup comes near this; a longer one means the file is not a backup. */
const MAX_LINE_BYTES = 16 * 1024 * 1024;
const NEWLINE = 0x0a;
const GZIP_MAGIC = [0x1f, 0x8b];

/** What the restore needs to know of the database it writes to. */
interface Schema {
  schemaVersion: number;
  columns: Map<string, Set<string>>;
  indexes: IndexDefinition[];
}

interface IndexDefinition {
  name: string;
  sql: string;
}

/**
 * Secondary indexes (not the unique ones, which guard the data) are dropped while the rows go in
 * and built again at the end: building an index once from every row is several times faster than
 * keeping it in order row by row. Their definitions wait in PENDING_INDEXES from the moment they
 * are dropped, in the same transaction, so a restore stopped half way leaves them for the next
 * one to build.
 */
const PENDING_INDEXES = 'restore_pending_indexes';
const INDEXES_SQL = `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE %'
  AND tbl_name IN (${DATA_TABLES.map((table) => `'${table}'`).join(', ')}) ORDER BY name`;
const HAS_PENDING_SQL = `SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = '${PENDING_INDEXES}'`;

const asIndexes = (rows: Row[] = []) => rows.map((row) => ({ name: String(row.name), sql: String(row.sql) }));

const dropIndexes = (db: RestoreTarget, indexes: IndexDefinition[]) =>
  db.write([
    `CREATE TABLE IF NOT EXISTS ${PENDING_INDEXES} (name TEXT PRIMARY KEY, sql TEXT NOT NULL)`,
    `DELETE FROM ${PENDING_INDEXES}`,
    ...insertStatements(PENDING_INDEXES, ['name', 'sql'], indexes.map(({ name, sql }) => [name, sql])),
    ...indexes.map(({ name }) => `DROP INDEX IF EXISTS ${name}`),
  ]);

const buildIndexes = (db: RestoreTarget, indexes: IndexDefinition[]) =>
  db.write([...indexes.map(({ sql }) => sql.replace(/^CREATE INDEX /i, 'CREATE INDEX IF NOT EXISTS ')), `DROP TABLE IF EXISTS ${PENDING_INDEXES}`]);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const isCell = (value: unknown) => value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));

/** The database's schema version and columns; refuses a target that already holds data. */
const readTarget = async (db: RestoreTarget): Promise<Schema> => {
  const results = await db.read([
    SCHEMA_VERSION_SQL,
    `SELECT ${DATA_TABLES.map((table) => `(SELECT count(*) FROM ${table}) AS ${table}`).join(', ')}`,
    INDEXES_SQL,
    HAS_PENDING_SQL,
    ...DATA_TABLES.map((table) => `SELECT name FROM pragma_table_info('${table}')`),
  ]);
  const counts = results[1]?.[0] ?? {};
  const occupied = DATA_TABLES.filter((table) => Number(counts[table] ?? 0) > 0);
  if (occupied.length) throw new RestoreError(`The target database is not empty (${occupied.join(', ')}). Restore into an empty one.`);
  const indexes = new Map(asIndexes(results[2]).map((index) => [index.name, index]));
  if (Number(results[3]?.[0]?.n ?? 0) > 0) {
    const [pending] = await db.read([`SELECT name, sql FROM ${PENDING_INDEXES}`]);
    for (const index of asIndexes(pending)) indexes.set(index.name, index);
  }
  return {
    schemaVersion: Number(results[0]?.[0]?.version ?? 0),
    columns: new Map(DATA_TABLES.map((table, i) => [table, new Set((results[4 + i] ?? []).map((row) => String(row.name)))])),
    indexes: [...indexes.values()],
  };
};

const assertTables = (tables: string[], schema: Schema) => {
  const unknown = tables.filter((table) => !schema.columns.has(table));
  if (unknown.length) throw new RestoreError(`The backup holds table(s) this database does not have: ${unknown.join(', ')}.`);
};

/** Checks one row against its table in the target; `where` names it in the message. */
const assertRow = (row: unknown, table: string, schema: Schema, where: string): Row => {
  if (!isObject(row)) throw new RestoreError(`${where}: a row of ${table} is not an object.`);
  const known = schema.columns.get(table) ?? new Set();
  for (const [column, value] of Object.entries(row)) {
    if (!known.has(column)) throw new RestoreError(`${where}: ${table} has no column "${column}" in this database.`);
    if (!isCell(value)) throw new RestoreError(`${where}: ${table}.${column} is not text, a number or null.`);
  }
  return row;
};

/** Checks that every row of a table has the columns of its first row; returns those columns. */
const columnsOf = (table: string) => {
  let columns: string[] | null = null;
  let signature = '';
  return (row: Row, where: string) => {
    const keys = Object.keys(row);
    if (columns === null) {
      columns = keys;
      signature = keys.join(',');
    } else if (keys.join(',') !== signature) {
      throw new RestoreError(`${where}: a row of ${table} has other columns than the rows before it.`);
    }
    return columns;
  };
};

/**
 * The streamed format's check of each row of one table, as assertRow and columnsOf together but
 * cheaper: the first row's columns are checked against the database, and every later row must
 * have the same columns in the same order, so only its values are left to check.
 */
const rowCheck = (table: string, schema: Schema) => {
  let columns: string[] | null = null;
  return (value: unknown, where: string): { row: Row; columns: string[] } => {
    if (columns === null || !isObject(value)) {
      const row = assertRow(value, table, schema, where);
      columns = Object.keys(row);
      return { row, columns };
    }
    let i = 0;
    for (const column in value) {
      if (column !== columns[i]) break;
      if (!isCell(value[column])) throw new RestoreError(`${where}: ${table}.${column} is not text, a number or null.`);
      i += 1;
    }
    if (i !== columns.length || Object.keys(value).length !== i) {
      // The message the general check gives: an unknown column, a bad value or other columns.
      assertRow(value, table, schema, where);
      throw new RestoreError(`${where}: a row of ${table} has other columns than the rows before it.`);
    }
    return { row: value, columns };
  };
};

/**
 * Turns rows into INSERT statements as they come, each filled up to D1's statement size (and at
 * most `maxRows` rows), and sends them to the target in chunks of about `target.chunkBytes`,
 * parents first as the rows come. One chunk is written while the next is made, so reading the
 * file and writing the database overlap. Reports the rows written after each chunk.
 */
const sqlWriter = (db: RestoreTarget, maxRows: number, report: (rows: number, table: string) => void) => {
  let chunk: string[] = [];
  let bytes = 0;
  let table = '';
  let builder: InsertBuilder | null = null;
  /** Rows in the statement being built, not yet in the chunk. */
  let open = 0;
  let converted = 0;
  let writing: Promise<void> = Promise.resolve();
  const push = (statement: string | null | undefined) => {
    if (!statement) return;
    chunk.push(statement);
    bytes += statement.length;
  };
  const close = () => {
    push(builder?.end());
    converted += open;
    open = 0;
  };
  const send = async () => {
    await writing;
    if (!chunk.length) return;
    const [statements, done, last] = [chunk, converted, table];
    chunk = [];
    bytes = 0;
    writing = db.write(statements).then(() => report(done, last));
    // Seen by the next send or by finish; this keeps it from counting as unhandled meanwhile.
    writing.catch(() => undefined);
  };
  return {
    add: async (name: string, names: string[], row: Row) => {
      if (name !== table || !builder) {
        close();
        table = name;
        builder = insertBuilder(name, names, maxRows);
      }
      const done = builder.add(names.map((column) => row[column]));
      if (done) {
        push(done);
        converted += open;
        open = 0;
      }
      open += 1;
      if (bytes >= db.chunkBytes) await send();
    },
    finish: async () => {
      close();
      await send();
      await writing;
    },
    /** Waits for a write still in flight, whatever its outcome, before anything else is sent. */
    settle: () => writing.catch(() => undefined),
  };
};

/**
 * The decompressed bytes of a gzip-compressed file (one stream, or members one after another) in
 * blocks of whole lines, each block ending with a '\n': read by block rather than by line, so
 * that a block is decoded and hashed in one call rather than one a line.
 */
async function* gzipBlocks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = gunzipStream(stream);
  try {
    let rest = new Uint8Array(0);
    for (;;) {
      let next: IteratorResult<Uint8Array>;
      try {
        next = await reader.next();
      } catch (error) {
        throw new RestoreError(`The file is damaged or truncated: it is not a complete gzip stream (${(error as Error).message}).`);
      }
      if (next.done) break;
      let data = next.value;
      if (rest.byteLength) {
        data = new Uint8Array(rest.byteLength + next.value.byteLength);
        data.set(rest);
        data.set(next.value, rest.byteLength);
      }
      const end = data.lastIndexOf(NEWLINE) + 1;
      if (end) yield data.subarray(0, end);
      rest = data.slice(end);
      if (rest.byteLength > MAX_LINE_BYTES) throw new RestoreError('The file is not a backup: it has a line longer than 16 MiB.');
    }
    if (rest.byteLength) throw new RestoreError('The file is truncated: its last line is cut off.');
  } finally {
    // Stops the read when a check ends it early.
    await reader.return(undefined).catch(() => undefined);
  }
}

/**
 * The text of each line of a block, without its '\n'; null for a line that is not UTF-8. A '\n'
 * byte is never part of a longer UTF-8 character, so the block's lines and its text's lines are
 * the same lines.
 */
const linesOf = (block: Uint8Array, decoder: TextDecoder): (string | null)[] => {
  try {
    const lines: (string | null)[] = decoder.decode(block).split('\n');
    lines.pop();
    return lines;
  } catch {
    const lines: (string | null)[] = [];
    for (let start = 0, end = block.indexOf(NEWLINE); end !== -1; start = end + 1, end = block.indexOf(NEWLINE, start)) {
      try {
        lines.push(decoder.decode(block.subarray(start, end)));
      } catch {
        lines.push(null);
      }
    }
    return lines;
  }
};

/** Where each line of a block starts, in bytes, found by counting '\n's on from the line asked for before: ask in order. */
const lineStarts = (block: Uint8Array) => {
  let line = 0;
  let at = 0;
  return (target: number) => {
    for (; line < target; line += 1) at = block.indexOf(NEWLINE, at) + 1;
    return at;
  };
};

const asHeader = (value: unknown, schema: Schema): BackupHeader => {
  if (!isObject(value) || value.format !== BACKUP_FORMAT) {
    throw new RestoreError(`The file is not a format ${BACKUP_FORMAT} backup: its first line is not the header.`);
  }
  const { createdAt, schemaVersion, tables } = value;
  if (typeof createdAt !== 'string' || Number.isNaN(Date.parse(createdAt)) || !isCount(schemaVersion)) {
    throw new RestoreError('The backup header has no valid createdAt or schemaVersion.');
  }
  if (!Array.isArray(tables) || !tables.every((table) => typeof table === 'string') || new Set(tables).size !== tables.length) {
    throw new RestoreError('The backup header does not list its tables.');
  }
  if (schemaVersion > schema.schemaVersion) {
    throw new RestoreError(`The backup is of schema version ${schemaVersion}, newer than this database's ${schema.schemaVersion}. Apply the migrations first.`);
  }
  assertTables(tables as string[], schema);
  return { format: BACKUP_FORMAT, createdAt, schemaVersion, tables: tables as string[] };
};

const asManifest = (value: Record<string, unknown>, header: BackupHeader): Manifest => {
  const manifest = value.manifest;
  const valid =
    isObject(manifest) &&
    Object.keys(manifest).sort().join(',') === [...header.tables].sort().join(',') &&
    Object.values(manifest).every((entry) => isObject(entry) && isCount(entry.rows) && typeof entry.sha256 === 'string' && /^[0-9a-f]{64}$/.test(entry.sha256));
  if (!valid) throw new RestoreError('The backup manifest is malformed or does not list the tables of the header.');
  return manifest as Manifest;
};

interface ReadResult {
  header: BackupHeader;
  manifest: Manifest;
}

type Writer = ReturnType<typeof sqlWriter>;

/**
 * Reads a format 2 file from start to end, checking every line, and the row counts and hashes
 * against the manifest. With a writer it also inserts the rows, table by table as they come;
 * without one it only checks.
 */
const readStreamed = async (stream: ReadableStream<Uint8Array>, schema: Schema, writer: Writer | null, options: RestoreOptions): Promise<ReadResult> => {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  const seen = new Map<string, TableSummary>();
  let header: BackupHeader | null = null;
  let manifest: Manifest | null = null;
  let lineNumber = 0;
  let rowsRead = 0;
  let current = null as { table: string; index: number; rows: number; hash: Sha256; check: ReturnType<typeof rowCheck> } | null;

  const finishTable = async () => {
    if (!current) return;
    seen.set(current.table, { rows: current.rows, sha256: await current.hash.hex() });
  };

  for await (const block of gzipBlocks(stream)) {
    const lines = linesOf(block, decoder);
    const startOf = lineStarts(block);
    // The current table's row lines not yet hashed begin at this byte of the block: a run of
    // them is hashed in one call when another table's rows, the manifest or the block's end comes.
    let unhashed: number | null = null;
    const hashRun = async (end: number) => {
      if (unhashed === null || !current) return;
      await current.hash.update(block.subarray(unhashed, end));
      unhashed = null;
    };
    for (let i = 0; i < lines.length; i += 1) {
      lineNumber += 1;
      const where = `Line ${lineNumber}`;
      if (manifest) throw new RestoreError(`${where} follows the manifest, which must be the last line.`);
      const text = lines[i];
      let value: unknown;
      try {
        if (text === null) throw new Error('not UTF-8');
        value = JSON.parse(text);
      } catch {
        throw new RestoreError(`${where} is not valid JSON.`);
      }
      if (!header) {
        header = asHeader(value, schema);
        continue;
      }
      if (isObject(value) && 'manifest' in value) {
        await hashRun(startOf(i));
        await finishTable();
        manifest = asManifest(value, header);
        continue;
      }
      if (!isObject(value) || typeof value.t !== 'string' || !('r' in value)) throw new RestoreError(`${where} is not a row line.`);
      const table = value.t;
      if (current?.table !== table) {
        const index = header.tables.indexOf(table);
        if (index === -1) throw new RestoreError(`${where} holds a row of ${table}, a table the header does not list.`);
        if (current && index <= current.index) throw new RestoreError(`${where}: the rows of ${table} are out of the header's order.`);
        await hashRun(startOf(i));
        await finishTable();
        current = { table, index, rows: 0, hash: options.sha256(), check: rowCheck(table, schema) };
      }
      unhashed ??= startOf(i);
      const { row, columns } = current.check(value.r, where);
      if (writer) await writer.add(table, columns, row);
      current.rows += 1;
      rowsRead += 1;
      if (!writer && rowsRead % CHECK_REPORT_ROWS === 0) {
        options.onProgress?.({ phase: 'check', rows: rowsRead, totalRows: null, table, tablesDone: seen.size, tables: header.tables.length });
      }
    }
    await hashRun(block.byteLength);
  }

  if (!header) throw new RestoreError('The file is empty.');
  if (!manifest) throw new RestoreError('The file is truncated: it ends before the manifest.');
  for (const table of header.tables) {
    const found = seen.get(table) ?? { rows: 0, sha256: await options.sha256().hex() };
    const expected = manifest[table] as TableSummary;
    if (found.rows !== expected.rows) throw new RestoreError(`The backup is damaged: ${table} has ${found.rows} rows, the manifest says ${expected.rows}.`);
    if (found.sha256 !== expected.sha256) throw new RestoreError(`The backup is damaged: the rows of ${table} do not match the manifest's SHA-256.`);
  }
  await writer?.finish();
  return { header, manifest };
};

interface LegacyBackup {
  version: typeof LEGACY_BACKUP_FORMAT;
  createdAt: string;
  tables: Record<string, unknown[]>;
}

/** Checks a format 1 file (one JSON object, no hashes) as far as it can be checked. */
const asLegacy = (value: unknown, schema: Schema): LegacyBackup => {
  if (!isObject(value) || value.version !== LEGACY_BACKUP_FORMAT || !isObject(value.tables)) {
    throw new RestoreError(`The file is neither a format ${BACKUP_FORMAT} backup (gzip) nor a format ${LEGACY_BACKUP_FORMAT} one (JSON).`);
  }
  const tables = value.tables;
  assertTables(Object.keys(tables), schema);
  for (const [table, rows] of Object.entries(tables)) {
    if (!Array.isArray(rows)) throw new RestoreError(`The backup has no rows array for ${table}.`);
    const check = columnsOf(table);
    rows.forEach((row, i) => check(assertRow(row, table, schema, `${table} row ${i + 1}`), `${table} row ${i + 1}`));
  }
  return value as unknown as LegacyBackup;
};

const writeLegacy = async (writer: Writer, backup: LegacyBackup) => {
  for (const table of DATA_TABLES) {
    const rows = (backup.tables[table] ?? []) as Row[];
    const columns = Object.keys(rows[0] ?? {});
    for (const row of rows) await writer.add(table, columns, row);
  }
  await writer.finish();
};

/**
 * The stream's first chunk, and a stream that yields everything again from the start. Reading on
 * instead of cancelling and reopening: a cancelled R2 body rejects a promise nobody can catch.
 */
const peek = async (stream: ReadableStream<Uint8Array>) => {
  const reader = stream.getReader();
  const first = await reader.read();
  let pending: ReadableStreamReadResult<Uint8Array> | null = first;
  const replay = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = pending ?? (await reader.read());
      pending = null;
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
  });
  return { first: first.done ? new Uint8Array(0) : first.value, stream: replay };
};

const isGzip = (bytes: Uint8Array) => GZIP_MAGIC.every((byte, i) => bytes[i] === byte);

/** Deletes what a failed restore wrote; the target was empty before it began. */
const wipe = (db: RestoreTarget) => db.write([...DATA_TABLES].reverse().map((table) => `DELETE FROM ${table}`));

const rowCounts = async (db: RestoreTarget) => {
  const [counts] = await db.read([`SELECT ${DATA_TABLES.map((table) => `(SELECT count(*) FROM ${table}) AS ${table}`).join(', ')}`]);
  return Object.fromEntries(DATA_TABLES.map((table) => [table, Number(counts?.[0]?.[table] ?? 0)])) as Record<DataTable, number>;
};

/** A writer that reports the rows written against the total, table by table. */
const progressWriter = (db: RestoreTarget, tables: readonly string[], totals: Record<string, number>, options: RestoreOptions) => {
  const totalRows = tables.reduce((sum, table) => sum + (totals[table] ?? 0), 0);
  return sqlWriter(db, options.batchRows ?? Infinity, (rows, table) =>
    options.onProgress?.({ phase: 'write', rows, totalRows, table, tablesDone: Math.max(0, tables.indexOf(table)), tables: tables.length }),
  );
};

/**
 * Writes the rows with the secondary indexes set aside, and builds them again whatever happens.
 * Should writing fail, what was written is deleted again.
 */
const writeRows = async (db: RestoreTarget, schema: Schema, writer: Writer, write: () => Promise<void>) => {
  await dropIndexes(db, schema.indexes);
  try {
    await write();
  } catch (error) {
    await writer.settle();
    await wipe(db);
    throw error;
  } finally {
    await buildIndexes(db, schema.indexes);
  }
};

/**
 * Restores a backup file, either format, into a migrated database that holds no data rows, with
 * the original ids. The whole file is checked before the first row is written (counts and
 * hashes for format 2); a file that fails a check is refused with a RestoreError and nothing
 * written. Should writing fail part way (or the file change between the two reads), what was
 * written is deleted again. Returns the rows restored per table.
 */
export const restoreBackup = async (db: RestoreTarget, source: RestoreSource, options: RestoreOptions) => {
  const schema = await readTarget(db);
  const { first, stream } = await peek(await source.open());
  if (!isGzip(first)) {
    let value: unknown;
    try {
      value = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(await new Response(stream).arrayBuffer()));
    } catch {
      throw new RestoreError('The file is neither a gzip-compressed backup nor a JSON one, or it is truncated.');
    }
    const backup = asLegacy(value, schema);
    const totals = Object.fromEntries(Object.entries(backup.tables).map(([table, rows]) => [table, rows.length]));
    const writer = progressWriter(db, DATA_TABLES, totals, options);
    await writeRows(db, schema, writer, () => writeLegacy(writer, backup));
    return rowCounts(db);
  }

  const checked = await readStreamed(stream, schema, null, options);
  const totals = Object.fromEntries(Object.entries(checked.manifest).map(([table, { rows }]) => [table, rows]));
  const writer = progressWriter(db, checked.header.tables, totals, options);
  await writeRows(db, schema, writer, async () => {
    const written = await readStreamed(await source.open(), schema, writer, options);
    if (written.header.createdAt !== checked.header.createdAt || JSON.stringify(written.manifest) !== JSON.stringify(checked.manifest)) {
      throw new RestoreError('The file changed while it was being restored.');
    }
  });
  return rowCounts(db);
};
