import {
  BACKUP_FORMAT,
  LEGACY_BACKUP_FORMAT,
  type BackupHeader,
  type Manifest,
  type Row,
  type Sha256,
  type Sha256Factory,
  type TableSummary,
} from './backup-format';
import { insertRows } from './bulk';
import { DATA_TABLES, SCHEMA_VERSION_SQL, type DataTable } from './tables';

/** A backup that cannot be restored; the message says why, for the person running the restore. */
export class RestoreError extends Error {}

export interface RestoreSource {
  /** Opens the file from its start. A restore reads it twice: to check it, then to write it. */
  open(): Promise<ReadableStream<Uint8Array>>;
}

export interface RestoreOptions {
  sha256: Sha256Factory;
  /** Rows inserted per call; bounds the memory a restore needs. */
  batchRows?: number;
}

const BATCH_ROWS = 1000;
/** No line of a backup comes near this; a longer one means the file is not a backup. */
const MAX_LINE_BYTES = 16 * 1024 * 1024;
const NEWLINE = 0x0a;
const GZIP_MAGIC = [0x1f, 0x8b];

interface Target {
  schemaVersion: number;
  columns: Map<string, Set<string>>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const isCell = (value: unknown) => value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));

/** The target's schema version and columns; refuses a target that already holds data. */
const readTarget = async (db: D1Database): Promise<Target> => {
  const results = await db.batch<Row>([
    db.prepare(SCHEMA_VERSION_SQL),
    ...DATA_TABLES.map((table) => db.prepare(`SELECT count(*) AS n FROM ${table}`)),
    ...DATA_TABLES.map((table) => db.prepare('SELECT name FROM pragma_table_info(?1)').bind(table)),
  ]);
  const counts = results.slice(1, 1 + DATA_TABLES.length);
  const occupied = DATA_TABLES.filter((_, i) => Number(counts[i]?.results[0]?.n ?? 0) > 0);
  if (occupied.length) throw new RestoreError(`The target database is not empty (${occupied.join(', ')}). Restore into an empty one.`);
  const columns = results.slice(1 + DATA_TABLES.length);
  return {
    schemaVersion: Number(results[0]?.results[0]?.version ?? 0),
    columns: new Map(DATA_TABLES.map((table, i) => [table, new Set((columns[i]?.results ?? []).map((row) => String(row.name)))])),
  };
};

const assertTables = (tables: string[], target: Target) => {
  const unknown = tables.filter((table) => !target.columns.has(table));
  if (unknown.length) throw new RestoreError(`The backup holds table(s) this database does not have: ${unknown.join(', ')}.`);
};

/** Checks one row against its table in the target; `where` names it in the message. */
const assertRow = (row: unknown, table: string, target: Target, where: string): Row => {
  if (!isObject(row)) throw new RestoreError(`${where}: a row of ${table} is not an object.`);
  const known = target.columns.get(table) ?? new Set();
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

/** Rows of one table inserted in batches of `batchRows`; with no database, only checked. */
const tableWriter = (db: D1Database | null, table: string, batchRows: number) => {
  const check = columnsOf(table);
  let columns: string[] = [];
  let pending: Row[] = [];
  const flush = async () => {
    if (db && pending.length) await insertRows(db, table, columns, pending.map((row) => columns.map((column) => row[column])));
    pending = [];
  };
  return {
    add: async (row: Row, where: string) => {
      columns = check(row, where);
      if (!db) return;
      pending.push(row);
      if (pending.length >= batchRows) await flush();
    },
    flush,
  };
};

/** The lines of a gzip-compressed file, each with its '\n'. */
async function* gzipLines(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const gunzip = new DecompressionStream('gzip');
  // Fed by hand rather than piped: a damaged stream errors both sides and the reader below
  // reports it, while workerd reports a failing pipe's close as an unhandled rejection.
  const feed = async () => {
    const source = stream.getReader();
    const sink = gunzip.writable.getWriter();
    for (let next = await source.read(); !next.done; next = await source.read()) await sink.write(next.value);
    await sink.close();
  };
  feed().catch(() => undefined);
  const reader = gunzip.readable.getReader();
  try {
    let rest = new Uint8Array(0);
    for (;;) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
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
      let start = 0;
      for (let end = data.indexOf(NEWLINE); end !== -1; end = data.indexOf(NEWLINE, start)) {
        yield data.subarray(start, end + 1);
        start = end + 1;
      }
      rest = data.slice(start);
      if (rest.byteLength > MAX_LINE_BYTES) throw new RestoreError('The file is not a backup: it has a line longer than 16 MiB.');
    }
    if (rest.byteLength) throw new RestoreError('The file is truncated: its last line is cut off.');
  } finally {
    // Stops the feed when a check ends the read early.
    await reader.cancel().catch(() => undefined);
  }
}

const asHeader = (value: unknown, target: Target): BackupHeader => {
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
  if (schemaVersion > target.schemaVersion) {
    throw new RestoreError(`The backup is of schema version ${schemaVersion}, newer than this database's ${target.schemaVersion}. Apply the migrations first.`);
  }
  assertTables(tables as string[], target);
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

/**
 * Reads a format 2 file from start to end, checking every line, and the row counts and hashes
 * against the manifest. With a database it also inserts the rows, table by table as they come;
 * without one it only checks.
 */
const readStreamed = async (stream: ReadableStream<Uint8Array>, target: Target, db: D1Database | null, options: RestoreOptions): Promise<ReadResult> => {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  const batchRows = options.batchRows ?? BATCH_ROWS;
  const seen = new Map<string, TableSummary>();
  let header: BackupHeader | null = null;
  let manifest: Manifest | null = null;
  let lineNumber = 0;
  let current = null as { table: string; index: number; rows: number; hash: Sha256; writer: ReturnType<typeof tableWriter> } | null;

  const finishTable = async () => {
    if (!current) return;
    await current.writer.flush();
    seen.set(current.table, { rows: current.rows, sha256: await current.hash.hex() });
  };

  for await (const line of gzipLines(stream)) {
    lineNumber += 1;
    const where = `Line ${lineNumber}`;
    if (manifest) throw new RestoreError(`${where} follows the manifest, which must be the last line.`);
    let value: unknown;
    try {
      value = JSON.parse(decoder.decode(line.subarray(0, -1)));
    } catch {
      throw new RestoreError(`${where} is not valid JSON.`);
    }
    if (!header) {
      header = asHeader(value, target);
      continue;
    }
    if (isObject(value) && 'manifest' in value) {
      await finishTable();
      manifest = asManifest(value, header);
      continue;
    }
    if (!isObject(value) || typeof value.t !== 'string' || !('r' in value)) throw new RestoreError(`${where} is not a row line.`);
    const { t: table, r } = value;
    if (current?.table !== table) {
      const index = header.tables.indexOf(table);
      if (index === -1) throw new RestoreError(`${where} holds a row of ${table}, a table the header does not list.`);
      if (current && index <= current.index) throw new RestoreError(`${where}: the rows of ${table} are out of the header's order.`);
      await finishTable();
      current = { table, index, rows: 0, hash: options.sha256(), writer: tableWriter(db, table, batchRows) };
    }
    await current.hash.update(line);
    await current.writer.add(assertRow(r, table, target, where), where);
    current.rows += 1;
  }

  if (!header) throw new RestoreError('The file is empty.');
  if (!manifest) throw new RestoreError('The file is truncated: it ends before the manifest.');
  for (const table of header.tables) {
    const found = seen.get(table) ?? { rows: 0, sha256: await options.sha256().hex() };
    const expected = manifest[table] as TableSummary;
    if (found.rows !== expected.rows) throw new RestoreError(`The backup is damaged: ${table} has ${found.rows} rows, the manifest says ${expected.rows}.`);
    if (found.sha256 !== expected.sha256) throw new RestoreError(`The backup is damaged: the rows of ${table} do not match the manifest's SHA-256.`);
  }
  return { header, manifest };
};

interface LegacyBackup {
  version: typeof LEGACY_BACKUP_FORMAT;
  createdAt: string;
  tables: Record<string, unknown[]>;
}

/** Checks a format 1 file (one JSON object, no hashes) as far as it can be checked. */
const asLegacy = (value: unknown, target: Target): LegacyBackup => {
  if (!isObject(value) || value.version !== LEGACY_BACKUP_FORMAT || !isObject(value.tables)) {
    throw new RestoreError(`The file is neither a format ${BACKUP_FORMAT} backup (gzip) nor a format ${LEGACY_BACKUP_FORMAT} one (JSON).`);
  }
  const tables = value.tables;
  assertTables(Object.keys(tables), target);
  for (const [table, rows] of Object.entries(tables)) {
    if (!Array.isArray(rows)) throw new RestoreError(`The backup has no rows array for ${table}.`);
    const check = columnsOf(table);
    rows.forEach((row, i) => check(assertRow(row, table, target, `${table} row ${i + 1}`), `${table} row ${i + 1}`));
  }
  return value as unknown as LegacyBackup;
};

const writeLegacy = async (db: D1Database, backup: LegacyBackup, options: RestoreOptions) => {
  for (const table of DATA_TABLES) {
    const writer = tableWriter(db, table, options.batchRows ?? BATCH_ROWS);
    for (const row of backup.tables[table] ?? []) await writer.add(row as Row, table);
    await writer.flush();
  }
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
const wipe = async (db: D1Database) => {
  await db.batch([...DATA_TABLES].reverse().map((table) => db.prepare(`DELETE FROM ${table}`)));
};

const rowCounts = async (db: D1Database) => {
  const results = await db.batch<{ n: number }>(DATA_TABLES.map((table) => db.prepare(`SELECT count(*) AS n FROM ${table}`)));
  return Object.fromEntries(DATA_TABLES.map((table, i) => [table, Number(results[i]?.results[0]?.n ?? 0)])) as Record<DataTable, number>;
};

/**
 * Restores a backup file, either format, into a migrated database that holds no data rows, with
 * the original ids. The whole file is checked before the first row is written (counts and
 * hashes for format 2); a file that fails a check is refused with a RestoreError and nothing
 * written. Should writing fail part way (or the file change between the two reads), what was
 * written is deleted again. Returns the rows restored per table.
 */
export const restoreBackup = async (db: D1Database, source: RestoreSource, options: RestoreOptions) => {
  const target = await readTarget(db);
  const { first, stream } = await peek(await source.open());
  if (!isGzip(first)) {
    let value: unknown;
    try {
      value = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(await new Response(stream).arrayBuffer()));
    } catch {
      throw new RestoreError('The file is neither a gzip-compressed backup nor a JSON one, or it is truncated.');
    }
    const backup = asLegacy(value, target);
    try {
      await writeLegacy(db, backup, options);
    } catch (error) {
      await wipe(db);
      throw error;
    }
    return rowCounts(db);
  }

  const checked = await readStreamed(stream, target, null, options);
  try {
    const written = await readStreamed(await source.open(), target, db, options);
    if (written.header.createdAt !== checked.header.createdAt || JSON.stringify(written.manifest) !== JSON.stringify(checked.manifest)) {
      throw new RestoreError('The file changed while it was being restored.');
    }
  } catch (error) {
    await wipe(db);
    throw error;
  }
  return rowCounts(db);
};
