import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { AuditQuery } from '../../src/shared/schemas/audit';
import { TICKET_SORTS, type TicketListQuery } from '../../src/shared/schemas/tickets';
import { auditListSql } from '../../src/worker/provider/db/audit';
import { IMPORT_INSERT_SQL, LEDGER_LINES_SQL } from '../../src/worker/provider/db/imports';
import { bucketsOf, OPENED_AND_RESOLVED_SQL, openedAndResolved } from '../../src/worker/provider/db/report-buckets';
import { ticketListSql } from '../../src/worker/provider/db/tickets';

// The plans SQLite picks for the list and report queries, from the real D1 with every migration
// applied. A sort that cannot read an index in order shows as "USE TEMP B-TREE FOR ORDER BY":
// at 100,000 tickets that meant reading every matching ticket to return 25.
const planOf = async (sql: string, params: unknown[] = []) =>
  (
    await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .bind(...params)
      .all<{ detail: string }>()
  ).results.map((row) => row.detail);

const sorts = TICKET_SORTS.flatMap((key) => [key, `-${key}`]);

describe('ticket list query plans', () => {
  it.each(sorts)('reads the whole list in index order when sorted by %s', async (sort) => {
    const sql = ticketListSql({ sort, page: 3, pageSize: 25 } as TicketListQuery, 1);
    const plan = await planOf(sql.page, sql.params);
    expect(plan.join('\n')).not.toMatch(/TEMP B-TREE/);
  });

  // Sorting by status when filtered by one status is left out: every row has the same status.
  it.each(sorts.filter((sort) => !sort.endsWith('status')))(
    'reads one status in index order when sorted by %s',
    async (sort) => {
      const sql = ticketListSql({ sort, status: 'open', page: 3, pageSize: 25 } as TicketListQuery, 1);
      const plan = await planOf(sql.page, sql.params);
      expect(plan.join('\n')).not.toMatch(/TEMP B-TREE/);
      expect(plan.join('\n')).toMatch(/USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY|SCAN t$/m);
    },
  );

  it('counts the tickets of one status from an index alone', async () => {
    const sql = ticketListSql({ status: 'open', page: 1, pageSize: 25 } as TicketListQuery, 1);
    expect((await planOf(sql.total, sql.params)).join('\n')).toMatch(/COVERING INDEX/);
  });

  // The dashboard's cards open these views; each must find its tickets by index, not by reading all.
  it.each([
    ['overdue', { overdue: true }, /INDEX tickets_status_due \(status=\? AND due_at<\?\)/],
    ['mine', { mine: true }, /INDEX tickets_assignee_status \(assignee_id=\?/],
    ['mine and open', { mine: true, open: true }, /INDEX tickets_assignee_status \(assignee_id=\? AND status=\?\)/],
    ['open', { open: true }, /INDEX tickets_status/],
  ])('finds the %s tickets and counts them by index', async (_, filters, index) => {
    const sql = ticketListSql({ page: 1, pageSize: 25, ...filters } as TicketListQuery, 1);
    expect((await planOf(sql.total, sql.params)).join('\n')).toMatch(index);
    expect((await planOf(sql.page, sql.params)).join('\n')).not.toMatch(/SCAN t$/m);
  });

  // A search reads the two full-text indexes and then each ticket and comment by its id, however
  // many tickets and comments there are (migrations/0015_comment_search.sql).
  it('finds the tickets a search matches through the full-text indexes of tickets and comments', async () => {
    const sql = ticketListSql({ q: 'router', page: 1, pageSize: 25 } as TicketListQuery, 1);
    for (const statement of [sql.page, sql.total]) {
      const plan = (await planOf(statement, sql.params)).join('\n');
      expect(plan).toMatch(/SCAN tickets_fts VIRTUAL TABLE/);
      expect(plan).toMatch(/SCAN ticket_comments_fts VIRTUAL TABLE/);
      expect(plan).toMatch(/SEARCH ticket_comments USING INTEGER PRIMARY KEY/);
      expect(plan).toMatch(/SEARCH t USING INTEGER PRIMARY KEY/);
      expect(plan).not.toMatch(/SCAN (t|ticket_comments)$/m);
    }
  });
});

describe('audit log query plans', () => {
  it.each([
    ['a record’s history', { entity: 'ticket', entityId: 7 }, 'audit_log_entity'],
    ['the whole log', {}, 'audit_log_at'],
    ['one person’s entries', { actorId: 3 }, 'audit_log_actor'],
  ])('reads %s in index order', async (_, filters, index) => {
    const sql = auditListSql({ page: 2, pageSize: 25, ...filters } as AuditQuery);
    const plan = (await planOf(sql.page, sql.params)).join('\n');
    expect(plan).not.toMatch(/TEMP B-TREE/);
    expect(plan).toMatch(new RegExp(`INDEX ${index}\\b`));
  });

  it('counts a record’s history from its index alone', async () => {
    const sql = auditListSql({ page: 1, pageSize: 25, entity: 'ticket', entityId: 7 } as AuditQuery);
    expect((await planOf(sql.total, sql.params)).join('\n')).toMatch(/COVERING INDEX audit_log_entity/);
  });
});

describe('report query plans', () => {
  it('counts opened and resolved tickets per bucket by index range, not by reading tickets', async () => {
    const plan = (await planOf(OPENED_AND_RESOLVED_SQL, ['[]'])).join('\n');
    expect(plan).toMatch(/COVERING INDEX tickets_created \(created_at>\? AND created_at<\?\)/);
    expect(plan).toMatch(/COVERING INDEX tickets_resolved \(resolved_at>\? AND resolved_at<\?\)/);
  });

  it('answers one row per bucket, in order', async () => {
    const { results } = await openedAndResolved(env.DB, bucketsOf('2026-01-01', '2026-12-31', 'month')).all<{ label: string }>();
    expect(results.map((row) => row.label)).toEqual(Array.from({ length: 12 }, (_, i) => `2026-${String(i + 1).padStart(2, '0')}`));
  });
});

describe('bucketsOf', () => {
  it('splits a range into days, each a half-open range of stored times', () => {
    expect(bucketsOf('2026-02-27', '2026-03-01', 'day')).toEqual([
      { label: '2026-02-27', start: '2026-02-27T00:00:00.000Z', end: '2026-02-28T00:00:00.000Z' },
      { label: '2026-02-28', start: '2026-02-28T00:00:00.000Z', end: '2026-03-01T00:00:00.000Z' },
      { label: '2026-03-01', start: '2026-03-01T00:00:00.000Z', end: '2026-03-02T00:00:00.000Z' },
    ]);
  });

  it('clips the first and last month to the range', () => {
    expect(bucketsOf('2025-12-15', '2026-02-10', 'month')).toEqual([
      { label: '2025-12', start: '2025-12-15T00:00:00.000Z', end: '2026-01-01T00:00:00.000Z' },
      { label: '2026-01', start: '2026-01-01T00:00:00.000Z', end: '2026-02-01T00:00:00.000Z' },
      { label: '2026-02', start: '2026-02-01T00:00:00.000Z', end: '2026-02-11T00:00:00.000Z' },
    ]);
  });
});

// An import's check and its INSERT look up each row of a chunk by month and reference. Read the
// other way round (every line of the ledger, each matched against the chunk) a 10,000-row import
// into a full ledger took minutes.
describe('import query plans', () => {
  const reference = /SEARCH l USING (COVERING )?INDEX invoice_lines_source_reference \(source=\? AND period=\? AND reference=\?\)/;

  it("checks a chunk's references one by one through the reference index", async () => {
    const plan = await planOf(LEDGER_LINES_SQL, ['autofi', '[]']);
    expect(plan[0]).toMatch(/^SCAN j/);
    expect(plan.join('\n')).toMatch(reference);
  });

  it("inserts a chunk looking each row's reference up through the same index", async () => {
    const plan = (await planOf(IMPORT_INSERT_SQL, ['autofi', '[]'])).join('\n');
    expect(plan).toMatch(/SCAN j/);
    expect(plan.match(new RegExp(reference.source, 'g'))).toHaveLength(2);
  });
});
