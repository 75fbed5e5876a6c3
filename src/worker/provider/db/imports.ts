import { IMPORT_MAX_ERRORS, IMPORT_PREVIEW_ROWS, type ImportListQuery } from '../../../shared/schemas/imports';
import { moneyInMessage } from '../../../shared/money';
import type { InvoiceSource } from '../../../shared/schemas/invoices';
import type { ImportBatch, ImportError, ImportReport, ImportResult } from '../../../shared/types';
import { Conflict } from '../errors/domain';
import type { CheckedRow, CompanyIndex } from '../imports/check-rows';
import type { AuditContext } from './audit';
import { readPage } from './pagination';
import { rowsOf, written } from './rows';
import { NOW_SQL, fullName, whereSql } from './sql';
import { webhookOutbox } from './webhooks';

/**
 * Ledger imports (README "Ledger imports"). An import is one D1 batch, so all of its lines are
 * written or none: the batch row, the lines a chunk at a time (each chunk one JSON parameter, so
 * no statement binds more than a handful of values), the batch's counts and its audit entry. That
 * a row the ledger already holds (same month and reference, same values) is skipped is part of
 * each INSERT's WHERE, so two imports of one file at the same moment still create its lines once;
 * a row whose reference the ledger holds with other values is refused by the same INSERT.
 */

/** Rows per statement, at most: one JSON parameter each. */
export const IMPORT_CHUNK_ROWS = 500;
/**
 * Bytes of one JSON parameter, at most. D1 refuses a bound value over 2,000,000 bytes, and 10,000
 * references of 100 CJK characters are 3 MB; rows of long text fill this before IMPORT_CHUNK_ROWS.
 */
export const IMPORT_CHUNK_BYTES = 1_000_000;

/**
 * `items` as JSON arrays of at most IMPORT_CHUNK_ROWS items and IMPORT_CHUNK_BYTES bytes each, to
 * bind one per statement; an item is never split.
 */
export const jsonChunks = (items: unknown[]) => {
  const encoder = new TextEncoder();
  const chunks: string[] = [];
  let texts: string[] = [];
  let bytes = 2;
  for (const item of items) {
    const text = JSON.stringify(item);
    const size = encoder.encode(text).byteLength + 1;
    if (texts.length && (texts.length >= IMPORT_CHUNK_ROWS || bytes + size > IMPORT_CHUNK_BYTES)) {
      chunks.push(`[${texts.join(',')}]`);
      texts = [];
      bytes = 2;
    }
    texts.push(text);
    bytes += size;
  }
  if (texts.length) chunks.push(`[${texts.join(',')}]`);
  return chunks;
};

/** Every company by lower-cased name and by lower-cased code. */
export const companyIndex = async (db: D1Database): Promise<CompanyIndex> => {
  const { results } = await db.prepare('SELECT id, name, code FROM companies').all<{ id: number; name: string; code: string }>();
  const index: CompanyIndex = new Map();
  for (const { id, name, code } of results) {
    if (code) index.set(code.toLowerCase(), id);
    index.set(name.toLowerCase(), id);
  }
  return index;
};

const keyOf = (period: string, reference: string) => `${period}\u0000${reference}`;

/** A line the ledger holds under the month and reference of a row of the file. */
interface LedgerLine {
  period: string;
  reference: string;
  company_id: number | null;
  company_name: string | null;
  description: string;
  quantity: number;
  unit_price_cents: number;
}

/**
 * The ledger's lines under a chunk (?2) of [period, reference] pairs in source ?1. CROSS JOIN keeps
 * SQLite reading the chunk first and each pair by the (source, period, reference) index; left to
 * itself it walks every line of the source for each pair.
 */
export const LEDGER_LINES_SQL = `SELECT l.period, l.reference, l.company_id, c.name AS company_name, l.description, l.quantity, l.unit_price_cents
  FROM json_each(?2) j CROSS JOIN invoice_lines l
    ON l.source = ?1 AND l.period = j.value ->> '$[0]' AND l.reference = j.value ->> '$[1]' AND l.reference <> ''
  LEFT JOIN companies c ON c.id = l.company_id`;

/**
 * The lines the ledger holds under the (period, reference) pairs of `rows`, by pair: the pairs a
 * chunk to a statement, all in one batch.
 */
const ledgerLines = async (db: D1Database, source: InvoiceSource, rows: CheckedRow[]) => {
  const byKey = new Map<string, LedgerLine[]>();
  const pairs = rows.filter((r) => r.reference).map((r) => [r.period, r.reference]);
  if (!pairs.length) return byKey;
  const select = db.prepare(LEDGER_LINES_SQL);
  const found = await db.batch<LedgerLine>(jsonChunks(pairs).map((chunk) => select.bind(source, chunk)));
  for (const line of found.flatMap(({ results }) => results)) {
    const key = keyOf(line.period, line.reference);
    byKey.set(key, [...(byKey.get(key) ?? []), line]);
  }
  return byKey;
};

const sameValues = (row: CheckedRow, line: LedgerLine) =>
  line.company_id === row.companyId && line.description === row.description && line.quantity === row.quantity && line.unit_price_cents === row.unitPriceCents;

const quoted = (text: string) => JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
const money = (cents: number | null) => (cents === null ? '' : moneyInMessage(cents));

/** Each value in which `row` differs from the ledger's `line`, as an error naming both. */
const differences = (row: CheckedRow, line: LedgerLine): ImportError[] => {
  const fields: [field: string, name: string, ledger: string, file: string][] = [];
  if (line.company_id !== row.companyId) fields.push(['company', 'company', quoted(line.company_name ?? 'none'), quoted(row.company)]);
  if (line.description !== row.description) fields.push(['description', 'description', quoted(line.description), quoted(row.description)]);
  if (line.quantity !== row.quantity) fields.push(['quantity', 'quantity', String(line.quantity), String(row.quantity)]);
  if (line.unit_price_cents !== row.unitPriceCents) fields.push(['unit_price', 'unit price', money(line.unit_price_cents), money(row.unitPriceCents)]);
  return fields.map(([field, name, ledger, file]) => ({ row: row.row, field, message: `Already in the ledger with ${name} ${ledger}; the file says ${file}` }));
};

/**
 * The file checked against the ledger: a valid row whose reference the ledger holds for its month
 * is a duplicate when a line there has the same company, description, quantity and unit price,
 * else an error naming each value that differs. The errors come in row order; `duplicates` holds
 * the rows to skip.
 */
const checkLedger = async (db: D1Database, source: InvoiceSource, checked: CheckedRow[], fileErrors: ImportError[]) => {
  const ledger = await ledgerLines(db, source, checked.filter((r) => r.ok));
  const duplicates = new Set<number>();
  const differing: ImportError[] = [];
  const rows = checked.map((row) => {
    const lines = row.ok && row.reference ? ledger.get(keyOf(row.period, row.reference)) : undefined;
    if (!lines) return row;
    if (lines.some((line) => sameValues(row, line))) {
      duplicates.add(row.row);
      return row;
    }
    differing.push(...differences(row, lines[0] as LedgerLine));
    return { ...row, ok: false };
  });
  const errors = differing.length ? [...fileErrors, ...differing].sort((a, b) => a.row - b.row) : fileErrors;
  return { rows, errors, duplicates };
};

const amountOf = (row: CheckedRow) => (row.quantity !== null && row.unitPriceCents !== null ? row.quantity * row.unitPriceCents : null);

const reportOf = ({ rows, errors, duplicates }: Awaited<ReturnType<typeof checkLedger>>): ImportReport => ({
  rows: rows.length,
  valid: rows.filter((r) => r.ok).length,
  duplicates: duplicates.size,
  errors: errors.slice(0, IMPORT_MAX_ERRORS),
  preview: rows.slice(0, IMPORT_PREVIEW_ROWS).map((row) => ({
    row: row.row,
    period: row.period,
    company: row.company,
    companyId: row.companyId,
    description: row.description,
    quantity: row.quantity,
    unitPriceCents: row.unitPriceCents,
    amountCents: amountOf(row),
    reference: row.reference,
    quantityText: row.quantityText,
    unitPriceText: row.unitPriceText,
    duplicate: duplicates.has(row.row),
  })),
});

/** The answer of a check: counts, the row errors and the first rows as they would become lines. */
export const importReport = async (db: D1Database, source: InvoiceSource, rows: CheckedRow[], errors: ImportError[]): Promise<ImportReport> =>
  reportOf(await checkLedger(db, source, rows, errors));

// The batch this import's statements belong to: the newest, which the batch's first statement made
// (D1 runs a batch as one transaction, so no other import's row can come between).
const THIS_BATCH = '(SELECT max(id) FROM import_batches)';

/** An import's write refused a row whose reference the ledger holds with other values. */
export class RowsDiffer extends Error {}

/** Runs an import's batch; the NOT NULL on a differing row's period becomes RowsDiffer. */
const writeBatch = async (db: D1Database, statements: D1PreparedStatement[]) => {
  try {
    return await db.batch<{ id: number; created: number; duplicates: number }>(statements);
  } catch (error) {
    if (error instanceof Error && /NOT NULL constraint failed: invoice_lines\.period/.test(error.message)) throw new RowsDiffer(error.message);
    throw error;
  }
};

// A ledger line under a file row's month and reference, and one that also has its values.
const SAME_REFERENCE = `l.source = ?1 AND l.period = j.value ->> '$.p' AND l.reference = j.value ->> '$.r' AND l.reference <> ''`;
const SAME_VALUES = `${SAME_REFERENCE} AND l.company_id IS j.value ->> '$.c' AND l.description = j.value ->> '$.d'
  AND l.quantity = j.value ->> '$.q' AND l.unit_price_cents = j.value ->> '$.u'`;

/** One chunk (?2, JSON rows) of an import's lines into source ?1, in the batch THIS_BATCH names. */
export const IMPORT_INSERT_SQL = `INSERT INTO invoice_lines (source, company_id, period, description, quantity, unit_price_cents, amount_cents, reference, status, import_batch_id)
  SELECT ?1, j.value ->> '$.c',
         CASE WHEN j.value ->> '$.r' <> '' AND EXISTS (SELECT 1 FROM invoice_lines l WHERE ${SAME_REFERENCE}) THEN NULL ELSE j.value ->> '$.p' END,
         j.value ->> '$.d', j.value ->> '$.q', j.value ->> '$.u',
         (j.value ->> '$.q') * (j.value ->> '$.u'), j.value ->> '$.r', 'draft', ${THIS_BATCH}
  FROM json_each(?2) j
  WHERE j.value ->> '$.r' = '' OR NOT EXISTS (SELECT 1 FROM invoice_lines l WHERE ${SAME_VALUES})
  ORDER BY j.key`;

/**
 * Writes checked, valid rows as draft lines of a new import batch; all or nothing. A row the
 * ledger holds with the same values is skipped; one whose reference it holds with other values
 * (edited since the check) is given no period, and the NOT NULL on it fails the whole batch: the
 * rule is in the write, so no edit between the check and the write slips through. That throws
 * RowsDiffer.
 */
export const importLines = async (db: D1Database, source: InvoiceSource, fileName: string, rows: CheckedRow[], audit: AuditContext): Promise<ImportResult> => {
  const { actorId, requestId } = audit;
  const lines = rows.map((r) => ({ c: r.companyId, p: r.period, d: r.description, q: r.quantity, u: r.unitPriceCents, r: r.reference }));
  const inserts = jsonChunks(lines).map((chunk) => db.prepare(IMPORT_INSERT_SQL).bind(source, chunk));
  const results = await writeBatch(db, [
    db.prepare('INSERT INTO import_batches (source, file_name, rows, user_id) VALUES (?1, ?2, ?3, ?4)').bind(source, fileName, rows.length, actorId),
    ...inserts,
    db
      .prepare(
        `UPDATE import_batches SET created = (SELECT count(*) FROM invoice_lines WHERE import_batch_id = import_batches.id),
           duplicates = rows - (SELECT count(*) FROM invoice_lines WHERE import_batch_id = import_batches.id)
         WHERE id = ${THIS_BATCH} RETURNING id, created, duplicates`,
      )
      .bind(),
    db
      .prepare(
        `INSERT INTO audit_log (actor_id, action, entity, entity_id, changes, request_id)
         SELECT ?1, 'import', 'import', id, json_object('source', json_array(NULL, source), 'fileName', json_array(NULL, file_name),
           'rows', json_array(NULL, rows), 'created', json_array(NULL, created), 'duplicates', json_array(NULL, duplicates)), ?2
         FROM import_batches WHERE id = ${THIS_BATCH}`,
      )
      .bind(actorId, requestId),
    importCompletedEvent(db, audit),
  ]);
  const batch = written(rowsOf<{ id: number; created: number; duplicates: number }>(results[results.length - 3])[0], 'import');
  return { batchId: batch.id, created: batch.created, duplicates: batch.duplicates };
};

/** An import refused: why, in one sentence, and the check. */
const refusal = (checked: Awaited<ReturnType<typeof checkLedger>>) => {
  const { errors } = checked;
  const message = `Nothing was imported: ${errors.length} ${errors.length === 1 ? 'problem' : 'problems'} in the file (row ${errors[0]?.row}: ${errors[0]?.message})`;
  return { message, ...reportOf(checked) };
};

/**
 * Imports a checked file: 201's batch, or 400's refusal with the check when a row is wrong or
 * differs from the ledger. A ledger line edited between the check and the write is caught by the
 * write itself (importLines), and the file is checked again to say which row.
 */
export const importFile = async (db: D1Database, source: InvoiceSource, fileName: string, rows: CheckedRow[], errors: ImportError[], audit: AuditContext) => {
  const checked = await checkLedger(db, source, rows, errors);
  if (checked.errors.length) return { refused: refusal(checked) };
  try {
    return { imported: await importLines(db, source, fileName, checked.rows, audit) };
  } catch (error) {
    if (!(error instanceof RowsDiffer)) throw error;
  }
  const again = await checkLedger(db, source, rows, errors);
  if (!again.errors.length) throw new Conflict('The ledger changed while the file was imported; nothing was imported. Check the file again');
  return { refused: refusal(again) };
};

interface BatchRow {
  id: number;
  source: InvoiceSource;
  file_name: string;
  rows: number;
  created: number;
  duplicates: number;
  user_id: number | null;
  user_name: string | null;
  created_at: string;
  undone_at: string | null;
  lines: number;
  billed_lines: number;
}

const BATCH_SELECT = `SELECT b.*, ${fullName('u')} AS user_name,
  (SELECT count(*) FROM invoice_lines l WHERE l.import_batch_id = b.id) AS lines,
  (SELECT count(*) FROM invoice_lines l WHERE l.import_batch_id = b.id AND l.status <> 'draft') AS billed_lines
  FROM import_batches b LEFT JOIN users u ON u.id = b.user_id`;

/**
 * The `import.completed` event (docs/api.md#webhook-events), last in an import's batch: the import
 * as `GET invoices/imports` answers it (toBatch in SQL, over the same SELECT). Its lines are
 * announced by it, not one `invoice_line.created` each.
 */
const importCompletedEvent = (db: D1Database, audit: AuditContext) =>
  webhookOutbox(
    db,
    'import.completed',
    `SELECT json_object('id', r.id, 'source', r.source, 'fileName', r.file_name, 'rows', r.rows, 'created', r.created, 'duplicates', r.duplicates,
       'userId', r.user_id, 'userName', r.user_name, 'at', r.created_at, 'undoneAt', r.undone_at, 'lines', r.lines, 'billedLines', r.billed_lines)
     FROM (${BATCH_SELECT} WHERE b.id = ${THIS_BATCH}) r`,
    [],
    audit,
  );

const toBatch = (row: BatchRow): ImportBatch => ({
  id: row.id,
  source: row.source,
  fileName: row.file_name,
  rows: row.rows,
  created: row.created,
  duplicates: row.duplicates,
  userId: row.user_id,
  userName: row.user_name,
  at: row.created_at,
  undoneAt: row.undone_at,
  lines: row.lines,
  billedLines: row.billed_lines,
});

export const listImports = async (db: D1Database, query: ImportListQuery) => {
  const list = { select: BATCH_SELECT, counted: 'import_batches b', orderBy: 'b.id DESC', ...whereSql([(bind) => `b.source = ${bind(query.source)}`]) };
  return (await readPage(db, list, query, (rows: BatchRow[]) => rows.map(toBatch))).page;
};

/** The undo's condition: not undone yet, and every line of the batch still a draft. */
const UNDOABLE = `(SELECT undone_at IS NULL FROM import_batches WHERE id = ?1)
  AND NOT EXISTS (SELECT 1 FROM invoice_lines WHERE import_batch_id = ?1 AND status <> 'draft')`;

const LINES_NAMED = 20;

/**
 * Takes an import back: deletes its lines and marks it undone, while every line of it is still a
 * draft. The condition is in each statement of the batch (the audit entry, the DELETE, the
 * UPDATE), so a line approved meanwhile leaves the import whole. Null when there is no such import.
 */
export const undoImport = async (db: D1Database, batchId: number, { actorId, requestId }: AuditContext) => {
  const [, , undone] = await db.batch([
    db
      .prepare(
        `INSERT INTO audit_log (actor_id, action, entity, entity_id, changes, request_id)
         SELECT ?2, 'delete', 'import', id, json_object('lines', json_array((SELECT count(*) FROM invoice_lines WHERE import_batch_id = ?1), 0)), ?3
         FROM import_batches WHERE id = ?1 AND ${UNDOABLE}`,
      )
      .bind(batchId, actorId, requestId),
    db.prepare(`DELETE FROM invoice_lines WHERE import_batch_id = ?1 AND ${UNDOABLE}`).bind(batchId),
    db.prepare(`UPDATE import_batches SET undone_at = ${NOW_SQL} WHERE id = ?1 AND ${UNDOABLE} RETURNING id`).bind(batchId),
  ]);
  if (rowsOf(undone).length) return true;
  const batch = await db.prepare(`${BATCH_SELECT} WHERE b.id = ?1`).bind(batchId).first<BatchRow>();
  if (!batch) return null;
  if (batch.undone_at) throw new Conflict('This import has been undone already');
  const { results } = await db
    .prepare(`SELECT id, status FROM invoice_lines WHERE import_batch_id = ?1 AND status <> 'draft' ORDER BY id LIMIT ${LINES_NAMED}`)
    .bind(batchId)
    .all<{ id: number; status: string }>();
  const named = results.map((line) => `${line.id} (${line.status})`).join(', ');
  const more = batch.billed_lines > results.length ? ` and ${batch.billed_lines - results.length} more` : '';
  throw new Conflict(`Lines ${named}${more} of this import are no longer drafts; undo it only while every line is a draft`);
};
