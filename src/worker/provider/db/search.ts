import { SOURCE_NAMES, statementNumber, type InvoiceSource } from '../../../shared/schemas/invoices';
import type { SearchQuery } from '../../../shared/schemas/search';
import type { SearchResult } from '../../../shared/types';
import { searchTerms } from './search-terms';
import { ticketHitsSql } from './ticket-hits';
import { parameters, startsWithSql, type Bind } from './sql';

/** A line's ledger; invoice_lines' CHECK holds its source to the ledgers. */
const lineSource = (row: Row) => text(row.source) as InvoiceSource;

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const STATUS_NAMES: Record<string, string> = { open: 'Open', in_progress: 'In progress', on_hold: 'On hold', resolved: 'Resolved', closed: 'Closed' };

/**
 * The statement periods a query names: "2026-09", "2026", "September 2026", "sep" (any year),
 * "GIFS-2026-09-2".
 * Returns a LIKE pattern, or null when the query does not read as a period.
 */
export const periodPattern = (text: string): string | null => {
  // A statement number, GIFS-2026-09-2, names its month.
  const numbered = /^gifs-?(\d{4}-\d{2})(-\d*)?$/i.exec(text);
  if (numbered) return numbered[1] ?? null;
  const digits = /^(\d{4})(-(\d{0,2}))?$/.exec(text);
  if (digits) return `${digits[1]}-${digits[3] ?? ''}%`;
  const named = /^([a-z]{3,})\.?\s*(\d{4})?$/i.exec(text);
  const month = named?.[1] ? MONTHS.findIndex((name) => name.startsWith(named[1]!.toLowerCase())) : -1;
  if (!named || month < 0) return null;
  return `${named[2] ?? '____'}-${String(month + 1).padStart(2, '0')}`;
};

const monthName = (period: string) => {
  const [year, month] = period.split('-');
  return `${MONTHS[Number(month) - 1]?.replace(/^./, (c) => c.toUpperCase()) ?? ''} ${year}`;
};

type Row = Record<string, string | number | null>;
const text = (value: string | number | null | undefined) => (value == null ? '' : String(value));
const joined = (...parts: (string | number | null | undefined)[]) => parts.map(text).filter(Boolean).join(' · ');

const TICKET_COLUMNS = `SELECT t.id, t.title, t.status, c.name AS company_name FROM tickets t LEFT JOIN companies c ON c.id = t.company_id`;
// Titles are in tickets_fts alone: comments have none.
const TITLE_HITS = 'SELECT rowid FROM tickets_fts WHERE tickets_fts MATCH ?1';

const toTicket = (row: Row): SearchResult => ({
  type: 'ticket',
  id: Number(row.id),
  title: `#${row.id} ${text(row.title)}`,
  subtitle: joined(STATUS_NAMES[text(row.status)] ?? row.status, row.company_name),
});

/**
 * `GET search`: tickets by number, then names (people, companies, categories) and statement
 * periods by prefix, then tickets whose title matches, then those that match only in their
 * description or comments, then invoice lines by reference; newest first within each.
 */
export const search = async (db: D1Database, { q, limit }: SearchQuery): Promise<SearchResult[]> => {
  const terms = searchTerms(q);
  // Names, codes, emails and references match from their start, as typed, punctuation and all.
  const whole = q.normalize('NFC').trim();
  if (terms.id === null && !terms.match) return [];

  const reads: { statement: D1PreparedStatement; toResult: (row: Row) => SearchResult }[] = [];
  const read = (sql: string, params: unknown[], toResult: (row: Row) => SearchResult) =>
    reads.push({ statement: db.prepare(sql).bind(...params), toResult });
  /** A read of names matched from their start, its values bound after the limit (?1). */
  const startsAs = (build: (bind: Bind) => string, toResult: (row: Row) => SearchResult) => {
    const { params, bind } = parameters([limit]);
    read(build(bind), params, toResult);
  };

  if (terms.id !== null) read(`${TICKET_COLUMNS} WHERE t.id = ?1`, [terms.id], toTicket);
  if (terms.match && whole) {
    // Every word starts the first name or the surname ("Sam Smith", "smi"), or the whole text
    // starts the email.
    const words = terms.words.slice(0, 4);
    startsAs(
      (bind) => `SELECT id, first_name, surname, email, is_active FROM users
       WHERE (${words.map((word) => `(${startsWithSql('first_name', bind, word)} OR ${startsWithSql('surname', bind, word)})`).join(' AND ') || '0'})
         OR ${startsWithSql('email', bind, whole)}
       ORDER BY surname COLLATE NOCASE, first_name COLLATE NOCASE LIMIT ?1`,
      (row) => ({ type: 'user', id: Number(row.id), title: `${text(row.first_name)} ${text(row.surname)}`, subtitle: joined(row.email, row.is_active ? null : 'Inactive') }),
    );
    startsAs(
      (bind) => `SELECT id, name, code FROM companies WHERE ${startsWithSql('name', bind, whole)} OR ${startsWithSql('code', bind, whole)} ORDER BY name COLLATE NOCASE LIMIT ?1`,
      (row) => ({ type: 'company', id: Number(row.id), title: text(row.name), subtitle: joined('Company', row.code) }),
    );
    startsAs(
      (bind) => `SELECT id, name, description FROM ticket_categories WHERE ${startsWithSql('name', bind, whole)} ORDER BY name COLLATE NOCASE LIMIT ?1`,
      (row) => ({ type: 'ticket_category', id: Number(row.id), title: text(row.name), subtitle: joined('Ticket category', row.description) }),
    );
  }
  const period = periodPattern(q.trim());
  if (period) {
    read(`SELECT s.id, s.period, s.sequence, s.status, c.name AS company_name FROM statements s LEFT JOIN companies c ON c.id = s.company_id
       WHERE s.ledger = 'gifs' AND s.period LIKE ?2 ORDER BY s.period DESC, s.sequence DESC LIMIT ?1`,
      [limit, period],
      (row) => ({
        type: 'statement',
        id: Number(row.id),
        title: `${statementNumber(text(row.period), Number(row.sequence))} · ${monthName(text(row.period))}`,
        subtitle: joined(row.company_name, row.status),
      }),
    );
  }
  if (terms.match) {
    const titleOnly = `{title} : (${terms.match})`;
    read(`${TICKET_COLUMNS} WHERE t.id IN (${TITLE_HITS}) ORDER BY t.created_at DESC, t.id DESC LIMIT ?2`, [titleOnly, limit], toTicket);
    read(`${TICKET_COLUMNS} WHERE t.id IN (${ticketHitsSql('?1')}) ORDER BY t.created_at DESC, t.id DESC LIMIT ?2`, [terms.match, limit * 2], toTicket);
  }
  if (whole) {
    startsAs(
      (bind) => `SELECT l.id, l.reference, l.source, l.period, c.name AS company_name FROM invoice_lines l LEFT JOIN companies c ON c.id = l.company_id
       WHERE ${startsWithSql('l.reference', bind, whole)} ORDER BY l.period DESC, l.id DESC LIMIT ?1`,
      (row) => {
        const source = lineSource(row);
        return { type: 'invoice_line', id: Number(row.id), title: text(row.reference), subtitle: joined(SOURCE_NAMES[source], row.period, row.company_name), source };
      },
    );
  }

  const results = await db.batch<Row>(reads.map(({ statement }) => statement));
  const seen = new Set<string>();
  const items: SearchResult[] = [];
  reads.forEach(({ toResult }, i) => {
    for (const row of results[i]?.results ?? []) {
      const item = toResult(row);
      const key = `${item.type}:${item.id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      items.push(item);
    }
  });
  return items.slice(0, limit);
};
