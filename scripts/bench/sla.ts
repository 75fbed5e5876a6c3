import { sendSlaAlerts } from '../../src/worker/provider/db/sla/alerts';
import { serveBuilt } from '../serve';
import { SCALE_STATE_DIR, adminToken } from './provider';
import { median, percentile, timeEach, type BenchRow } from './stats';

// Service levels at scale (docs/architecture.md#service-levels): every one of the 100,000 tickets
// of the scale database given a clock whose next warning is weeks away, so the minute trigger has
// nothing to send, and a ticket write with a policy to decide against one without. The clocks and
// the bench's policy are taken away again afterwards, leaving the scale database as it was.
const PORT = 9741;
const BASE = `http://127.0.0.1:${PORT}`;
const NAME = 'Bench around the clock';
const EVERY_MINUTE = '* * * * *';

/** `db` with every statement run through it counted: a batch is one call, as D1 bills it. */
const counting = (db: D1Database) => {
  const counter = { calls: 0 };
  const statement = (target: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(target, {
      get(object, key) {
        const value = Reflect.get(object, key) as unknown;
        if (typeof value !== 'function') return value;
        if (key === 'bind') return (...args: unknown[]) => statement((value as (...a: unknown[]) => D1PreparedStatement).apply(object, args));
        if (['all', 'first', 'run', 'raw'].includes(String(key))) counter.calls++;
        return (value as (...a: unknown[]) => unknown).bind(object);
      },
    });
  const wrapped = new Proxy(db, {
    get(object, key) {
      if (key === 'prepare') return (sql: string) => statement(object.prepare(sql));
      if (key === 'batch') {
        return (statements: D1PreparedStatement[]) => {
          counter.calls++;
          return object.batch(statements);
        };
      }
      const value = Reflect.get(object, key) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(object) : value;
    },
  });
  return { db: wrapped, counter };
};

const giveClocks = async (db: D1Database) => {
  await db.prepare('DELETE FROM sla_policies WHERE name = ?1').bind(NAME).run();
  await db.prepare('DELETE FROM calendars WHERE name = ?1').bind(NAME).run();
  const calendar = await db.prepare("INSERT INTO calendars (name, name_key, time_zone) VALUES (?1, ?2, 'UTC') RETURNING id").bind(NAME, `bench ${Date.now()}`).first<{ id: number }>();
  const policy = await db
    .prepare('INSERT INTO sla_policies (name, name_key, position, calendar_id, first_response_minutes, resolution_minutes) VALUES (?1, ?2, 1, ?3, 43200, 86400) RETURNING id')
    .bind(NAME, `bench ${Date.now()}`, calendar?.id)
    .first<{ id: number }>();
  const weeks = (n: number) => `strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+${n * 7} days')`;
  await db
    .prepare(
      `UPDATE tickets SET sla_policy_id = ?1, sla_started_at = created_at, sla_first_response_warn_at = ${weeks(3)}, sla_first_response_due_at = ${weeks(4)},
         sla_resolution_warn_at = ${weeks(7)}, sla_resolution_due_at = ${weeks(8)}, sla_due_at = ${weeks(4)}, sla_alert_at = ${weeks(3)}, sla_alerts = 0, sla_paused_at = NULL`,
    )
    .bind(policy?.id)
    .run();
  return (await db.prepare('SELECT count(*) AS n FROM tickets WHERE sla_alert_at IS NOT NULL').first<{ n: number }>())?.n ?? 0;
};

const takeClocksAway = async (db: D1Database) => {
  await db
    .prepare(
      `UPDATE tickets SET sla_policy_id = NULL, sla_started_at = NULL, sla_first_response_warn_at = NULL, sla_first_response_due_at = NULL, sla_first_responded_at = NULL,
         sla_resolution_warn_at = NULL, sla_resolution_due_at = NULL, sla_due_at = NULL, sla_alert_at = NULL, sla_alerts = 0, sla_paused_at = NULL, sla_paused_seconds = 0
       WHERE sla_policy_id IS NOT NULL OR sla_alert_at IS NOT NULL`,
    )
    .run();
  await db.prepare('DELETE FROM sla_policies WHERE name = ?1').bind(NAME).run();
  await db.prepare('DELETE FROM calendars WHERE name = ?1').bind(NAME).run();
};

const PRIORITIES = ['high', 'low', 'normal', 'urgent'];
let writes = 0;

/** Priority changes of tickets 1–40 in turn, each pass to the next priority so every write changes the row and decides the clock again. */
const timeWrites = async (token: string, count: number) => {
  const write = async () => {
    const n = writes++;
    const res = await fetch(`${BASE}/api/v1/tickets/${1 + (n % 40)}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ priority: PRIORITIES[Math.floor(n / 40) % PRIORITIES.length] }),
    });
    if (!res.ok) throw new Error(`PATCH tickets: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  };
  await timeEach(20, write);
  return timeEach(count, write);
};

export const benchSla = async (): Promise<BenchRow[]> => {
  const mf = await serveBuilt({ port: PORT, stateDir: SCALE_STATE_DIR, quiet: true, pages: false, triggerHandlers: true });
  const db = await mf.getD1Database('DB');
  try {
    const token = await adminToken(BASE);
    // Rounds in turn, so neither side has the warmer machine.
    const without: number[] = [];
    const withPolicy: number[] = [];
    let clocks = 0;
    for (let round = 0; round < 4; round++) {
      await takeClocksAway(db);
      without.push(...(await timeWrites(token, 50)));
      clocks = await giveClocks(db);
      withPolicy.push(...(await timeWrites(token, 50)));
    }

    const { db: counted, counter } = counting(db);
    const sent = await sendSlaAlerts(counted);
    const queries = counter.calls;
    const trigger = async () => {
      const res = await fetch(`${BASE}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent(EVERY_MINUTE)}`);
      if (!res.ok) throw new Error(`the scheduled handler answered ${res.status}: ${await res.text()}`);
    };
    await timeEach(5, trigger);
    const triggers = await timeEach(40, trigger);

    const extra = median(withPolicy) - median(without);
    const p95 = percentile(triggers, 95);
    return [
      {
        figure: `minute trigger, nothing due, ${clocks.toLocaleString('en')} tickets with clocks: D1 queries of the service-level step`,
        measured: `${queries}${sent.length ? ` (${sent.length} sent: the bench data was not quiet)` : ''}`,
        budget: '≤ 5',
        pass: queries <= 5 && sent.length === 0,
        value: queries,
      },
      {
        figure: 'minute trigger, nothing due, whole Cron invocation (backup check included) (40 runs)',
        measured: `${p95.toFixed(1)} ms p95 (p50 ${median(triggers).toFixed(1)} ms)`,
        budget: '≤ 50 ms',
        pass: p95 <= 50,
        value: p95,
      },
      {
        figure: 'ticket write deciding a service-level clock, more than with no policy (median of 200 each)',
        measured: `${extra.toFixed(2)} ms (${median(withPolicy).toFixed(2)} vs ${median(without).toFixed(2)} ms)`,
        budget: '≤ 2 ms',
        pass: extra <= 2,
        value: extra,
      },
    ];
  } finally {
    await takeClocksAway(db).catch((error: unknown) => console.error('could not take the bench clocks away', error));
    await mf.dispose();
  }
};
