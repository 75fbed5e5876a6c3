import { plainDecimal } from './money';

/**
 * CSV as RFC 4180, made safe and typed for spreadsheets:
 * - a text cell that a spreadsheet would run as a formula gets a leading apostrophe: one that
 *   starts with = + - @, tab or carriage return, also after leading white space or invisible
 *   characters (NBSP, zero-width space, BOM…), which spreadsheets skip before reading a formula;
 * - a cell holding a comma, a semicolon (the separator in many locales), a quote or a line break
 *   is quoted;
 * - the file starts with a UTF-8 byte order mark, so Excel reads it as UTF-8.
 * Numbers the app writes itself (counts, `CsvDecimal` money) are never prefixed.
 */
const FORMULA_START = /^[\p{White_Space}\p{Cf}]*[=+\-@]|^[\p{White_Space}\p{Cf}]*[\t\r]/u;
const NEEDS_QUOTES = /[",;\r\n]/;

export const CSV_BOM = '\uFEFF';

/** A decimal the app formatted itself (money), written as a plain number. */
export interface CsvDecimal {
  readonly decimal: string;
}

export type CsvCell = string | number | boolean | CsvDecimal | null | undefined;

/** Whether a spreadsheet would run this text as a formula (see FORMULA_START). */
export const startsLikeFormula = (value: string) => FORMULA_START.test(value);

export const csvCell = (value: CsvCell) => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return value.decimal;
  if (typeof value !== 'string') return String(value);
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** Rows as CSV lines, each ending in CRLF; for output written a part at a time. */
export const csvLines = (rows: CsvCell[][]) => rows.map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');

export const toCsv = (header: string[], rows: CsvCell[][]) => CSV_BOM + csvLines([header, ...rows]);

/** Integer cents as a plain decimal for spreadsheets: -1234 → -12.34. */
export const centsToDecimal = (cents: number): CsvDecimal => ({ decimal: plainDecimal(cents) });
