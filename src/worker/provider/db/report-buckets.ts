import { addDays, monthBounds } from '../../../shared/dates';
import type { ReportBucket } from '../../../shared/schemas/reports';
import { rowsOf } from './rows';

export type BucketSize = ReportBucket;

/** A labelled half-open time range [start, end) in the stored ISO text form. */
export interface Bucket {
  label: string;
  start: string;
  end: string;
}

const startOf = (day: string) => `${day}T00:00:00.000Z`;

/**
 * The days, or the months clipped to the range, from `from` to `to` (both YYYY-MM-DD, inclusive).
 * Labels are YYYY-MM-DD or YYYY-MM.
 */
export const bucketsOf = (from: string, to: string, size: BucketSize): Bucket[] => {
  const buckets: Bucket[] = [];
  const end = addDays(to, 1);
  for (let day = from; day < end; ) {
    const monthEnd = addDays(monthBounds(day).to, 1);
    const next = size === 'day' ? addDays(day, 1) : monthEnd < end ? monthEnd : end;
    buckets.push({ label: day.slice(0, size === 'day' ? 10 : 7), start: startOf(day), end: startOf(next) });
    day = next;
  }
  return buckets;
};

/**
 * Tickets opened and resolved in each bucket. Each count is a range count on the created_at and
 * resolved_at indexes, which stays a few index seeks per bucket however many tickets there are;
 * grouping every ticket in the range by a substring of its time read each one instead.
 */
export const OPENED_AND_RESOLVED_SQL = `SELECT json_extract(b.value, '$[0]') AS label,
    (SELECT count(*) FROM tickets WHERE created_at >= json_extract(b.value, '$[1]') AND created_at < json_extract(b.value, '$[2]')) AS opened,
    (SELECT count(*) FROM tickets WHERE resolved_at >= json_extract(b.value, '$[1]') AND resolved_at < json_extract(b.value, '$[2]')) AS resolved
  FROM json_each(?1) b ORDER BY b.key`;

export const openedAndResolved = (db: D1Database, buckets: Bucket[]) =>
  db.prepare(OPENED_AND_RESOLVED_SQL).bind(JSON.stringify(buckets.map((b) => [b.label, b.start, b.end])));

interface CountsRow {
  label: string;
  opened: number;
  resolved: number;
}

/** The rows of `openedAndResolved` as { bucket, opened, resolved }. */
export const countsOf = (result: D1Result | undefined) =>
  rowsOf<CountsRow>(result).map((r) => ({ bucket: r.label, opened: r.opened, resolved: r.resolved }));
