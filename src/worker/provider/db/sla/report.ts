import type { SlaReportQuery } from '../../../../shared/schemas/reports';
import type { SlaReport, SlaReportRow } from '../../../../shared/sla';
import { slaBreachedSql } from './clock-sql';

/**
 * `GET reports/sla` (docs/api.md#service-levels): each company's months by when its tickets were
 * opened, counting the tickets with a clock, those finished on time and those past a target, by
 * the same conditions as the ticket list's filters.
 */

interface ReportRow {
  company_id: number | null;
  company_name: string | null;
  month: string;
  tickets: number;
  met: number;
  breached: number;
}

const REPORT_SQL = `SELECT t.company_id, c.name AS company_name, substr(t.created_at, 1, 7) AS month, count(*) AS tickets,
    sum(t.status IN ('resolved', 'closed') AND NOT ${slaBreachedSql('t')}) AS met,
    sum(${slaBreachedSql('t')}) AS breached
  FROM tickets t LEFT JOIN companies c ON c.id = t.company_id
  WHERE t.sla_policy_id IS NOT NULL AND t.created_at >= ?1 AND t.created_at <= ?2 AND t.company_id IS coalesce(?3, t.company_id)
  GROUP BY t.company_id, month
  ORDER BY c.name IS NULL, c.name COLLATE NOCASE, t.company_id, month`;

/** Met as a share of the finished and the breached, to one decimal; null when there are none. */
const percentMet = (met: number, breached: number) => (met + breached === 0 ? null : Math.round((met / (met + breached)) * 1000) / 10);

export const slaReport = async (db: D1Database, query: SlaReportQuery): Promise<SlaReport> => {
  const { results } = await db
    .prepare(REPORT_SQL)
    .bind(`${query.from}T00:00:00.000Z`, `${query.to}T23:59:59.999Z`, query.companyId ?? null)
    .all<ReportRow>();
  const rows: SlaReportRow[] = results.map((row) => ({
    companyId: row.company_id,
    companyName: row.company_name,
    month: row.month,
    tickets: row.tickets,
    met: row.met,
    breached: row.breached,
    percentMet: percentMet(row.met, row.breached),
  }));
  const sum = (key: 'tickets' | 'met' | 'breached') => rows.reduce((total, row) => total + row[key], 0);
  const [met, breached] = [sum('met'), sum('breached')];
  return { from: query.from, to: query.to, rows, totals: { tickets: sum('tickets'), met, breached, percentMet: percentMet(met, breached) } };
};
