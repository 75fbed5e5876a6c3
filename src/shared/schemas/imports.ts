import { object, string, type InferType } from 'yup';
import { line } from './fields';
import { INVOICE_SOURCES, type InvoiceSource } from './invoices';
import { listQuerySchema } from './list';

/** Ledger imports (README "Ledger imports"): a vendor's CSV into a ledger as draft lines. */
export const IMPORT_MAX_BYTES = 5_000_000;
export const IMPORT_MAX_ROWS = 10_000;
export const IMPORT_PREVIEW_ROWS = 20;
/** The most row errors one answer lists; `valid` still counts every row. */
export const IMPORT_MAX_ERRORS = 1_000;
export const IMPORT_COLUMNS = ['period', 'company', 'description', 'quantity', 'unit_price', 'reference'] as const;
export type ImportColumn = (typeof IMPORT_COLUMNS)[number];
export const REQUIRED_IMPORT_COLUMNS: readonly ImportColumn[] = ['period', 'company', 'description', 'quantity', 'unit_price'];
/**
 * The most columns a file's header may have: far more than a vendor's export carries, few enough
 * that checking them is no work. A wider file is refused before anything else is read.
 */
export const IMPORT_MAX_COLUMNS = 200;
/** The most column names one answer lists; more are counted. */
export const IMPORT_NAMED_COLUMNS = 20;

/** `POST invoices/{source}/lines/import`: a dry run checks and writes nothing; `fileName` is kept with the import. */
export const importQuerySchema = object({
  dryRun: string<'true' | 'false'>().oneOf(['true', 'false'], 'Must be true or false').required('Required'),
  fileName: line(200),
});
export type ImportQuery = InferType<typeof importQuerySchema>;

/** `GET invoices/imports`: one ledger's imports, newest first. */
export const importListQuerySchema = listQuerySchema.pick(['page', 'pageSize']).shape({
  source: string<InvoiceSource>().oneOf(INVOICE_SOURCES, `Must be one of ${INVOICE_SOURCES.join(', ')}`).required('Required'),
});
export type ImportListQuery = InferType<typeof importListQuerySchema>;
