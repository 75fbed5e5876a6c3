import { describe, expect, it } from 'vitest';
import { parseLineParams, parseStatementParams } from '../../src/client/lib/addresses/invoices';
import { parseLookupParams } from '../../src/client/lib/addresses/lookups';
import { parseTicketReportParams } from '../../src/client/lib/addresses/reports';
import { parseTicketsParams } from '../../src/client/lib/addresses/tickets';
import { parseUsersParams } from '../../src/client/lib/addresses/users';
import { links, recordAddress } from '../../src/client/lib/links';
import { PAGES } from '../../src/client/lib/pages';

/** The page a link opens and the values it hands that page's parser. */
const open = (link: string) => {
  const url = new URL(link, 'https://app.example');
  return { page: url.pathname, params: url.searchParams };
};

describe('every link reads back through the parser of the page it opens', () => {
  it('tickets: a record and each filtered view the dashboard offers', () => {
    const ticket = open(links.ticket(96));
    expect(ticket.page).toBe(`${PAGES.tickets}/`);
    expect(parseTicketsParams(ticket.params)).toMatchObject({ id: 96 });
    for (const view of [{ open: true }, { mine: true, open: true }, { overdue: true, sort: 'dueAt' }] as const) {
      const list = open(links.tickets(view));
      expect(list.page).toBe(`${PAGES.tickets}/`);
      expect(parseTicketsParams(list.params)).toMatchObject(view);
    }
  });

  it('people, companies and ticket categories', () => {
    expect(parseUsersParams(open(links.user(27)).params).id).toBe(27);
    for (const [link, page] of [
      [links.company(4), PAGES.companies],
      [links.ticketCategory(4), PAGES.ticketCategories],
    ] as const) {
      expect(open(link).page).toBe(`${page}/`);
      expect(parseLookupParams(open(link).params).id).toBe(4);
    }
  });

  it('statements, invoice lines in each ledger and a closed month', () => {
    const statement = open(links.statement(2));
    expect(statement.page).toBe(PAGES.gifsStatements);
    expect(parseStatementParams(statement.params).statementId).toBe(2);
    const ledgers = { autofi: `${PAGES.autofi}/`, '3dtracking': `${PAGES.threeDTracking}/`, 'gifs-sla': PAGES.gifsSla, 'gifs-azure': PAGES.gifsAzure } as const;
    for (const [source, page] of Object.entries(ledgers) as [keyof typeof ledgers, string][]) {
      const line = open(links.line(source, 31));
      expect(line.page).toBe(page);
      expect(parseLineParams(line.params).lineId).toBe(31);
      expect(parseLineParams(open(links.ledgerMonth(source, '2026-10')).params).period).toBe('2026-10');
    }
  });

  it('the ticket report over a range of days', () => {
    const report = open(links.ticketReport('2026-10-01', '2026-10-31'));
    expect(report.page).toBe(`${PAGES.ticketReport}/`);
    expect(parseTicketReportParams(report.params).range).toBe('2026-10-01..2026-10-31');
  });

  it('a search hit or an audit entry opens its record, and a record with no page has no address', () => {
    expect(recordAddress('ticket', 96)).toBe(links.ticket(96));
    expect(recordAddress('session', 27)).toBe(links.user(27));
    expect(recordAddress('invoice_line', 31, 'gifs-azure')).toBe(links.line('gifs-azure', 31));
    expect(recordAddress('invoice_line', 31)).toBeUndefined();
    expect(recordAddress('ticket', null)).toBeUndefined();
  });
});
