/**
 * CSV as RFC 4180 with one addition: a text cell that a spreadsheet would run as a formula
 * (starting with = + - @, tab or carriage return, other than a plain number such as -12.34)
 * gets a leading apostrophe.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

export type CsvCell = string | number | boolean | null | undefined;

export const csvCell = (value: CsvCell) => {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  const safe = FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** Rows as CSV lines, each ending in CRLF; for output written a part at a time. */
export const csvLines = (rows: CsvCell[][]) => rows.map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');

export const toCsv = (header: string[], rows: CsvCell[][]) => csvLines([header, ...rows]);

/** Integer cents as a plain decimal for spreadsheets: -1234 → "-12.34". */
export const centsToDecimal = (cents: number) => {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
};
