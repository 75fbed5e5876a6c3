import { DAY_MS } from '../../src/shared/dates';
import { NO_ACTOR } from '../../src/worker/provider/db/audit';
import { generateStatement, moveStatement } from '../../src/worker/provider/db/statements';
import { issuerOf } from '../../src/worker/provider/issuer';
import type { Random } from './random';

/**
 * The demo's GIFS statements, made by the provider's own statement code and then dated as a real
 * ledger's would be: each month billed a few days into the month after it, the older ones paid a
 * few weeks after that, the newest two still owed. Made today and left so, every statement would
 * be issued today: none overdue, every aging bucket but "current" empty, "Overdue only" empty.
 */

const iso = (ms: number) => new Date(ms).toISOString();

/** A working morning `day` days into the month after `period` (YYYY-MM), in UTC. */
const intoNextMonth = (period: string, day: number, random: Random) => {
  const [year = 1970, month = 1] = period.split('-').map(Number);
  // Date.UTC counts months from 0, so the period's own month number is the month after it.
  return Date.UTC(year, month, day, random.int(8, 11), random.int(0, 59), random.int(0, 59));
};

/** Moves a statement's dates, its payments' and its history's to the times given. */
const backdate = (db: D1Database, id: number, times: { created: number; issued: number; settled?: number; voided?: number }) => {
  const last = times.voided ?? times.settled ?? times.issued;
  return db.batch([
    db
      .prepare('UPDATE statements SET created_at = ?2, issued_at = ?3, voided_at = CASE WHEN voided_at IS NULL THEN NULL ELSE ?4 END, updated_at = ?4 WHERE id = ?1')
      .bind(id, iso(times.created), iso(times.issued), iso(last)),
    db.prepare('UPDATE statement_payments SET paid_on = ?2, created_at = ?3 WHERE statement_id = ?1').bind(id, iso(last).slice(0, 10), iso(last)),
    // Its history in order: generated, issued, then what settled it (the payment, paid or void).
    db
      .prepare(
        `UPDATE audit_log SET at = CASE
           WHEN id = (SELECT min(id) FROM audit_log WHERE entity = 'statement' AND entity_id = ?1) THEN ?2
           WHEN json_extract(changes, '$.status[1]') = 'issued' THEN ?3 ELSE ?4 END
         WHERE entity = 'statement' AND entity_id = ?1`,
      )
      .bind(id, iso(times.created), iso(times.issued), iso(last)),
  ]);
};

/**
 * Bills `periods` (newest first; their GIFS lines approved) as statements: the newest was voided
 * once and billed again, so its statement is supplementary and still owed; the next is owed and
 * past due; the older ones are paid, 10 to 35 days after they went out. Returns how many it made.
 */
export const billDemoStatements = async (db: D1Database, periods: string[], random: Random, now = Date.now()) => {
  const issuer = issuerOf({});
  // Never later than yesterday, whatever the day of the month the demo is seeded on.
  const past = (ms: number) => Math.min(ms, now - DAY_MS);
  const bill = async (period: string) => {
    const statement = await generateStatement(db, { period }, issuer, NO_ACTOR);
    await moveStatement(db, statement.id, { status: 'issued', from: 'open' }, issuer, NO_ACTOR);
    return statement.id;
  };
  let made = 0;
  for (const [index, period] of periods.entries()) {
    const id = await bill(period);
    made += 1;
    const issued = past(intoNextMonth(period, random.int(2, 6), random));
    const created = issued - random.int(1, 3) * DAY_MS;
    if (index === 0) {
      await moveStatement(db, id, { status: 'void', from: 'issued', reason: 'Azure usage was billed at the wrong rate' }, issuer, NO_ACTOR);
      const voided = past(issued + random.int(5, 9) * DAY_MS);
      await backdate(db, id, { created, issued, voided });
      const again = await bill(period);
      made += 1;
      const reissued = past(voided + DAY_MS);
      await backdate(db, again, { created: voided, issued: reissued });
    } else if (index === 1) {
      await backdate(db, id, { created, issued });
    } else {
      await moveStatement(db, id, { status: 'paid', from: 'issued' }, issuer, NO_ACTOR);
      await backdate(db, id, { created, issued, settled: past(issued + random.int(10, 35) * DAY_MS) });
    }
  }
  return made;
};
