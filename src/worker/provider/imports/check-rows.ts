import { startsLikeFormula } from '../../../shared/csv';
import { characterFault } from '../../../shared/schemas/fields';
import { hasVisibleText, normalizeText } from '../../../shared/schemas/text';
import { IMPORT_COLUMNS, IMPORT_MAX_COLUMNS, IMPORT_NAMED_COLUMNS, REQUIRED_IMPORT_COLUMNS, type ImportColumn } from '../../../shared/schemas/imports';
import type { ImportError, ImportPreviewLine } from '../../../shared/types';
import { Invalid } from '../errors/domain';

/**
 * Checks each data row of an import against the rules of a line (the same limits as
 * createLineSchema): every fault is reported on its row and column, so the person fixes the file
 * once. The rows that pass are returned as lines to write.
 */

/** A row as read, with whether it passed every check. */
export type CheckedRow = Omit<ImportPreviewLine, 'amountCents' | 'duplicate'> & { ok: boolean };

/** A company by its name or code, compared without case. */
export type CompanyIndex = Map<string, number>;

const PERIOD = /^\d{4}-(0[1-9]|1[0-2])$/;
const WHOLE = /^\d{1,7}$/;
// A sign, a dollar sign (before or after the minus), whole units plain or in thousands with commas,
// and any decimals: 12.50, -3, $1,250.00, -$5. Anything else (1,25,0.00, 1.2.3) is no amount.
const PRICE = /^(-?)\$?(-?)(\d+|\d{1,3}(?:,\d{3})+)(?:\.(\d+))?$/;
const MAX_QUANTITY = 1_000_000;
const MAX_PRICE_CENTS = 100_000_000;
const TEXT_LIMITS = { description: 1000, reference: 100, company: 200 } as const;

/** The first IMPORT_NAMED_COLUMNS of `names`, quoted and shortened, and how many more there are. */
const named = (names: string[], quote: boolean) => {
  const listed = names.slice(0, IMPORT_NAMED_COLUMNS).map((name) => (quote ? JSON.stringify(name.slice(0, 40)) : name.slice(0, 40)));
  const more = names.length - listed.length;
  return `${listed.join(', ')}${more ? ` and ${more} more` : ''}`;
};

// Spreadsheets title their columns: "Unit Price", "unit price" and "unitprice" are unit_price.
const SPELLINGS = new Map<string, string>(IMPORT_COLUMNS.map((name) => [name.replaceAll('_', ''), name]));

/** A header field as the column it names: without case, spaces or underscores, else as typed (lower case). */
const columnName = (field: string) => {
  const name = field.trim().toLowerCase();
  return SPELLINGS.get(name.replace(/[\s_]+/g, '')) ?? name;
};

/**
 * Column name → its position; refuses a header that lacks a column, repeats one or has one it
 * does not know. A header is at most IMPORT_MAX_COLUMNS wide (readCsv), and each list in the
 * answer names at most IMPORT_NAMED_COLUMNS columns.
 */
export const columnsOf = (header: string[]) => {
  if (header.length > IMPORT_MAX_COLUMNS) throw new Invalid(`The header has ${header.length} columns; an import takes at most ${IMPORT_MAX_COLUMNS}`, { file: ['Too many columns'] });
  const names = header.map(columnName);
  const known = new Set<string>(IMPORT_COLUMNS);
  const present = new Set(names);
  const unknown = names.filter((name) => !known.has(name));
  const missing = REQUIRED_IMPORT_COLUMNS.filter((name) => !present.has(name));
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const name of names) (seen.has(name) ? repeated : seen).add(name);
  const faults = [
    ...(missing.length ? [`Missing column${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`] : []),
    ...(unknown.length ? [`Unknown column${unknown.length > 1 ? 's' : ''}: ${named(unknown, true)}`] : []),
    ...(repeated.size ? [`Repeated column: ${named([...repeated], false)}`] : []),
  ];
  if (faults.length) throw new Invalid(`${faults.join('. ')}. The header needs ${IMPORT_COLUMNS.join(', ')} (reference optional)`, { file: faults });
  return new Map(names.map((name, i) => [name as ImportColumn, i]));
};

/**
 * Money as typed in the file ("12.50", "-3", "0.5", "$1,250.00") as integer cents, or the message
 * saying why not.
 */
const centsOf = (text: string): number | string => {
  const match = PRICE.exec(text);
  // One minus at most: "--3" and "-$-3" are no amounts.
  if (!match || (match[1] && match[2])) return 'Must be a decimal number such as 12.50';
  const [, before, after, grouped = '', decimals = ''] = match;
  const units = grouped.replaceAll(',', '');
  if (decimals.length > 2) return `Must have at most 2 decimal places, such as ${units}.${decimals.slice(0, 2)}`;
  if (units.length > 9) return 'Too large';
  const cents = Number(units) * 100 + Number(decimals.padEnd(2, '0'));
  if (cents > MAX_PRICE_CENTS) return 'Too large';
  return before || after ? -cents : cents;
};

export const checkRows = (header: string[], records: string[][], companies: CompanyIndex) => {
  const columns = columnsOf(header);
  const errors: ImportError[] = [];
  const references = new Map<string, number>();
  const rows = records.map((cells, index): CheckedRow => {
    const row = index + 1;
    const faults: ImportError[] = [];
    const fault = (field: string, message: string) => faults.push({ row, field, message });
    if (cells.length !== header.length) fault('row', `Has ${cells.length} fields; the header has ${header.length}`);
    // Every cell as typed text is stored: NFC, white space and invisible characters off both ends.
    const cell = (name: ImportColumn) => {
      const at = columns.get(name);
      return at === undefined ? '' : normalizeText(cells[at] ?? '');
    };
    // The rules typed text is held to (the description one of createLineSchema's paragraphs, the
    // others lines), with the same messages, and the import's own about formulas.
    const text = (name: 'company' | 'description' | 'reference', required: boolean) => {
      const value = cell(name);
      const characters = characterFault(value, name === 'description');
      if (required && !hasVisibleText(value)) fault(name, 'Required');
      else if (characters) fault(name, characters);
      else if (value.length > TEXT_LIMITS[name]) fault(name, `Must be at most ${TEXT_LIMITS[name]} characters`);
      else if (startsLikeFormula(value)) fault(name, `Starts with ${JSON.stringify(value.trim()[0])}: a spreadsheet would run it as a formula`);
      return value;
    };

    const period = cell('period');
    if (!PERIOD.test(period)) fault('period', 'Must be a month as YYYY-MM');
    const company = text('company', true);
    const companyId = company ? (companies.get(company.toLowerCase()) ?? null) : null;
    if (company && companyId === null && !faults.some((f) => f.field === 'company')) fault('company', `Unknown company ${JSON.stringify(company.slice(0, 60))}`);
    const description = text('description', true);
    const reference = text('reference', false);

    const quantityText = cell('quantity');
    const quantity = WHOLE.test(quantityText) && Number(quantityText) <= MAX_QUANTITY ? Number(quantityText) : null;
    if (quantity === null) fault('quantity', WHOLE.test(quantityText) ? 'Too large' : 'Must be a whole number, 0 or more');
    const unitPriceText = cell('unit_price');
    const cents = centsOf(unitPriceText);
    if (typeof cents === 'string') fault('unit_price', cents);

    if (reference) {
      const first = references.get(reference);
      if (first !== undefined) fault('reference', `The same reference as row ${first}`);
      else references.set(reference, row);
    }
    errors.push(...faults);
    const unitPriceCents = typeof cents === 'number' ? cents : null;
    return { row, period, company, companyId, description, quantity, unitPriceCents, reference, quantityText, unitPriceText, ok: faults.length === 0 };
  });
  return { rows, errors };
};
