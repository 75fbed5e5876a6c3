import { Invalid } from '../errors/domain';

/**
 * Reads a vendor's CSV (RFC 4180): fields quoted with " (a doubled "" inside is one quote) may
 * hold separators and line breaks; lines end in CRLF or LF; the separator is whichever of comma,
 * semicolon or tab the header line holds most of. Blank lines are skipped.
 */

const SEPARATORS = [',', ';', '\t'] as const;

/** The separator the header uses: the most frequent of the three outside quotes. */
const separatorOf = (text: string) => {
  const counts = new Map<string, number>(SEPARATORS.map((s) => [s, 0]));
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && counts.has(char)) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  return [...counts].reduce((best, next) => (next[1] > best[1] ? next : best))[0];
};

const isBlank = (record: string[]) => record.length === 1 && record[0]?.trim() === '';

/**
 * The header and the data records of `text`; throws Invalid for a quote left open, once there
 * are more than `maxRecords` data records, or once the header has more than `maxColumns` fields
 * (reading stops there).
 */
export const readCsv = (text: string, maxRecords: number, maxColumns: number) => {
  const tooWide = () => new Invalid(`The header has more than ${maxColumns} columns; an import takes at most ${maxColumns}`, { file: ['Too many columns'] });
  const separator = separatorOf(text);
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let afterQuote = false;
  let i = 0;
  const end = () => {
    record.push(field);
    field = '';
    afterQuote = false;
    if (!isBlank(record)) {
      records.push(record);
      // The header plus one record past the limit is enough to refuse the file.
      if (records.length > maxRecords + 1) throw new Invalid(`The file has more than ${maxRecords.toLocaleString('en-US')} rows; split it`, { file: ['Too many rows'] });
    }
    record = [];
  };
  while (i < text.length) {
    const char = text[i] as string;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (char === '"') {
        quoted = false;
        afterQuote = true;
      } else field += char;
      i += 1;
      continue;
    }
    if (char === '"' && field === '' && !afterQuote) quoted = true;
    else if (char === separator) {
      record.push(field);
      field = '';
      afterQuote = false;
      // The header is refused as soon as it is too wide, before the rest of the file is read.
      if (records.length === 0 && record.length >= maxColumns) throw tooWide();
    } else if (char === '\r' || char === '\n') {
      end();
      if (char === '\r' && text[i + 1] === '\n') i += 1;
    } else field += char;
    i += 1;
  }
  if (quoted) throw new Invalid(`A quoted field opened in data row ${Math.max(records.length, 1)} is never closed`, { file: ['A quote is never closed'] });
  if (field !== '' || record.length) end();
  const [header, ...rows] = records;
  if (!header) throw new Invalid('The file is empty; it needs a header row and at least one row', { file: ['Empty file'] });
  return { header, rows, separator };
};
