import { IMPORT_MAX_ERRORS, IMPORT_PREVIEW_ROWS, type ImportListQuery } from '../../../shared/schemas/imports';
import type { InvoiceSource } from '../../../shared/schemas/invoices';
import type { ImportBatch, ImportReport, ImportResult } from '../../../shared/types';
import { Conflict } from '../errors/domain';
import type { CheckedRow, CompanyIndex } from '../imports/check-rows';
import type { AuditContext } from './audit';
import { readPage } from './pagination';
import { rowsOf, written } from './rows';
import { NOW_SQL, fullName, whereSql } from './sql';

/**
 * Ledger imports (README "Ledger imports"). An import is one D1 batch, so all of its lines are
 * written or none: the batch row, the lines a chunk at a time (each chunk one JSON parameter, so
 * no statement binds more than a handful of values), the batch's counts and its audit entry. That
 * a reference the ledger already holds for the month is skipped is part of each INSERT's WHERE,
 * so two imports of one file at the same moment still create its lines once.
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

/**
 * The (period, reference) pairs of `rows` that the ledger already holds, for the dry run's count
 * and preview: the pairs a chunk to a statement, all in one batch.
 */
const existingReferences = async (db: D1Database, source: InvoiceSource, rows: CheckedRow[]) => {
  const pairs = rows.filter((r) => r.reference).map((r) => [r.period, r.reference]);
  if (!pairs.length) return new Set<string>();
  const select = db.prepare(
    `SELECT l.period, l.reference FROM json_each(?2) j JOIN invoice_lines l
       ON l.source = ?1 AND l.period = j.value ->> '$[0]' AND l.reference = j.value ->> '$[1]' AND l.reference <> ''`,
  );
  const found = await db.batch<{ period: string; reference: string }>(jsonChunks(pairs).map((chunk) => select.bind(source, chunk)));
  return new Set(found.flatMap(({ results }) => results.map((r) => keyOf(r.period, r.reference))));
};

const amountOf = (row: CheckedRow) => (row.quantity !== null && row.unitPriceCents !== null ? row.quantity * row.unitPriceCents : null);

/** The answer of a check: counts, the row errors and the first rows as they would become lines. */
export const importReport = async (db: D1Database, source: InvoiceSource, rows: CheckedRow[], errors: ImportReport['errors']): Promise<ImportReport> => {
  const valid = rows.filter((r) => r.ok);
  const existing = await existingReferences(db, source, valid);
  const isDuplicate = (row: CheckedRow) => row.ok && row.reference !== '' && existing.has(keyOf(row.period, row.reference));
  return {
    rows: rows.length,
    valid: valid.length,
    duplicates: valid.filter(isDuplicate).length,
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
      duplicate: isDuplicate(row),
    })),
  };
};

// The batch this import's statements belong to: the newest, which the batch's first statement made
// (D1 runs a batch as one transaction, so no other import's row can come between).
const THIS_BATCH = '(SELECT max(id) FROM import_batches)';

/** Writes checked, valid rows as draft lines of a new import batch; all or nothing. */
export const importLines = async (db: D1Database, source: InvoiceSource, fileName: string, rows: CheckedRow[], { actorId, requestId }: AuditContext): Promise<ImportResult> => {
  const lines = rows.map((r) => ({ c: r.companyId, p: r.period, d: r.description, q: r.quantity, u: r.unitPriceCents, r: r.reference }));
  const inserts = jsonChunks(lines).map((chunk) =>
    db
      .prepare(
        `INSERT INTO invoice_lines (source, company_id, period, description, quantity, unit_price_cents, amount_cents, reference, status, import_batch_id)
         SELECT ?1, j.value ->> '$.c', j.value ->> '$.p', j.value ->> '$.d', j.value ->> '$.q', j.value ->> '$.u',
                (j.value ->> '$.q') * (j.value ->> '$.u'), j.value ->> '$.r', 'draft', ${THIS_BATCH}
         FROM json_each(?2) j
         WHERE j.value ->> '$.r' = '' OR NOT EXISTS (
           SELECT 1 FROM invoice_lines l WHERE l.source = ?1 AND l.period = j.value ->> '$.p' AND l.reference = j.value ->> '$.r' AND l.reference <> '')
         ORDER BY j.key`,
      )
      .bind(source, chunk),
  );
  const results = await db.batch<{ id: number; created: number; duplicates: number }>([
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
  ]);
  const batch = written(rowsOf<{ id: number; created: number; duplicates: number }>(results[results.length - 2])[0], 'import');
  return { batchId: batch.id, created: batch.created, duplicates: batch.duplicates };
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
