import { applyD1Migrations, env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { BackupRunning } from '../../src/worker/provider/db/backup/capacity';
import { abandonStuckRuns, startBackup, stepBackup, type StepBudget, type StepOutcome } from '../../src/worker/provider/db/backup/write';
import { workerdSha256 } from '../../src/worker/provider/db/backup/format';
import { tailKey } from '../../src/worker/provider/db/backup/parts';
import { restoreBackup } from '../../src/worker/provider/db/backup/restore';
import { d1Target } from '../../src/worker/provider/db/backup/restore-target';
import { COPIED_TABLES } from '../../src/worker/provider/db/backup/run';
import { DATA_TABLES } from '../../src/worker/provider/db/tables';
import { backupAtOnce, r2Source, readBackup, rowsIn, sha256Hex, type BackupFile } from './backup-files';
import { api, signedIn, type TestUser } from './support';

type Row = Record<string, unknown>;

let token: string;
let user: TestUser;

const count = async (sql: string, ...params: unknown[]) => (await env.DB.prepare(sql).bind(...params).first<number>('n')) ?? 0;
const rowsOf = async (db: D1Database, table: string) => (await db.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all<Row>()).results;
const snapshot = async (db: D1Database) => Object.fromEntries(await Promise.all(DATA_TABLES.map(async (table) => [table, await rowsOf(db, table)] as const)));
const copies = () => count("SELECT count(*) AS n FROM sqlite_master WHERE name LIKE 'backup_copy_%'");
const runOf = (runId: string) => env.DB.prepare('SELECT status, steps, max_step_queries, copy_ms, error FROM backup_runs WHERE id = ?1').bind(runId).first<Row>();

/** Every foreign key of every table in the file points at a row the file holds. */
const danglingReferences = async (file: BackupFile) => {
  const dangling: string[] = [];
  for (const table of DATA_TABLES) {
    const { results: keys } = await env.DB.prepare('SELECT "from" AS column, "table" AS parent, "to" AS target FROM pragma_foreign_key_list(?1)').bind(table).all<{ column: string; parent: string; target: string }>();
    for (const { column, parent, target } of keys) {
      const present = new Set(rowsIn(file, parent).map((row) => row[target]));
      for (const row of rowsIn(file, table)) {
        if (row[column] !== null && !present.has(row[column])) dangling.push(`${table}.${column} = ${String(row[column])}`);
      }
    }
  }
  return dangling;
};

const post = async (path: string, json: unknown) => (await api(path, { method: 'POST', token, json })).status;

beforeAll(async () => {
  await applyD1Migrations(env.RESTORE_DB, env.TEST_MIGRATIONS);
  ({ token, user } = await signedIn());
  await env.DB.batch([
    env.DB.prepare("INSERT INTO companies (name) VALUES ('Steady Co')"),
    env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
       INSERT INTO tickets (title, reporter_id) SELECT 'seed ' || i, ?1 FROM n`,
    ).bind(user.id),
  ]);
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
     INSERT INTO time_entries (ticket_id, user_id, work_date, minutes) SELECT (SELECT min(id) FROM tickets) + i % 300, ?1, '2026-03-01', 15 FROM n`,
  ).bind(user.id).run();
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 239)
     INSERT INTO invoice_lines (source, company_id, period, quantity, unit_price_cents, amount_cents, status)
     SELECT 'gifs-sla', (SELECT id FROM companies WHERE name = 'Steady Co'), printf('2025-%02d', 1 + i % 12), 1, 100 + i, 100 + i, 'approved' FROM n`,
  ).run();
});

describe('a backup in steps, one invocation each', () => {
  it('goes on across invocations while the team writes, and is the database as it stood when it started, verified and restorable', async () => {
    const { runId } = await startBackup(env.DB, env.BACKUPS, { madeBy: { type: 'schedule' }, pageRows: 50 });
    // Nothing else has written since the copies were taken: this is what the file must hold.
    const expected = await snapshot(env.DB);
    // A budget of a few pages per step, so this small database takes many invocations, as the
    // scale database does with the real budget.
    const budget: StepBudget = { queries: DATA_TABLES.length + 12, ms: 60_000 };
    const outcomes: StepOutcome[] = [];
    const writes: number[] = [];
    let i = 0;
    for (;;) {
      i += 1;
      // Writes between steps, and one alongside each step: new rows, changed rows, deleted rows.
      writes.push(await post('tickets', { title: `during the backup ${i}` }));
      writes.push(await post(`tickets/${String(expected.tickets?.[i]?.id)}/time-entries`, { workDate: '2026-03-02', minutes: 5, note: `during ${i}` }));
      await env.DB.prepare("UPDATE tickets SET title = 'changed during the backup' WHERE id = ?1").bind(expected.tickets?.[i]?.id).run();
      await env.DB.prepare('DELETE FROM time_entries WHERE id = ?1').bind(expected.time_entries?.[i]?.id).run();
      if (i <= 12) writes.push(await post('invoices/gifs/statements', { period: `2025-${String(i).padStart(2, '0')}` }));
      const [outcome, alongside] = await Promise.all([stepBackup(env.DB, env.BACKUPS, runId, budget), post('tickets', { title: `alongside step ${i}` })]);
      writes.push(alongside);
      expect(outcome, `step ${i}`).not.toBeNull();
      outcomes.push(outcome as StepOutcome);
      if (outcome?.done) break;
    }

    // Many invocations, each within its budget of queries; no write was turned away.
    expect(outcomes.length).toBeGreaterThan(10);
    for (const outcome of outcomes) expect(outcome.queries).toBeLessThanOrEqual(budget.queries);
    expect(writes.every((status) => status === 201), `statuses ${writes.join(' ')}`).toBe(true);
    const run = await runOf(runId);
    expect(run).toMatchObject({ status: 'done', steps: outcomes.length, error: null });
    expect(Number(run?.max_step_queries)).toBeLessThanOrEqual(budget.queries);

    // The file holds exactly the rows as they stood when the backup started, none written since.
    const last = outcomes.at(-1) as Extract<StepOutcome, { done: true }>;
    const file = await readBackup(last.backup.key);
    for (const table of DATA_TABLES) expect(rowsIn(file, table), table).toEqual(expected[table]);
    // Its manifest verifies: the counts and the SHA-256 of each table's lines.
    for (const table of DATA_TABLES) {
      const own = file.lines.slice(1, -1).filter((line) => (JSON.parse(line) as { t: string }).t === table);
      expect(file.manifest[table], table).toEqual({ rows: own.length, sha256: await sha256Hex(own.map((line) => `${line}\n`).join('')) });
    }
    expect(await danglingReferences(file)).toEqual([]);
    // It is one gzip stream of several members in parts; nothing of the run is left behind.
    expect(await copies()).toBe(0);
    expect(await env.BACKUPS.head(tailKey(runId))).toBeNull();

    // And it restores, row for row, into an empty database.
    await restoreBackup(d1Target(env.RESTORE_DB), r2Source(last.backup.key), { sha256: workerdSha256 });
    for (const table of DATA_TABLES) expect(await rowsOf(env.RESTORE_DB, table), table).toEqual(expected[table]);
  }, 120_000);

  it('spans several upload parts across steps, the tail carried from one step to the next', async () => {
    const { runId } = await startBackup(env.DB, env.BACKUPS, { madeBy: { type: 'schedule' }, pageRows: 100, partBytes: 5 * 1024 * 1024 });
    const expected = await snapshot(env.DB);
    let outcome: StepOutcome | null;
    let tails = 0;
    do {
      // Three pages a step besides the step's own queries (one per table and six more).
      outcome = await stepBackup(env.DB, env.BACKUPS, runId, { queries: DATA_TABLES.length + 9, ms: 60_000 });
      if (await env.BACKUPS.head(tailKey(runId))) tails += 1;
    } while (outcome && !outcome.done);
    expect(tails).toBeGreaterThan(0);
    const file = await readBackup((outcome as Extract<StepOutcome, { done: true }>).backup.key);
    for (const table of DATA_TABLES) expect(rowsIn(file, table), table).toEqual(expected[table]);
  }, 60_000);

  it('leaves a run alone while a step holds it, and takes it up once that lease has lapsed, as after a crash', async () => {
    const { runId } = await startBackup(env.DB, env.BACKUPS, { madeBy: { type: 'schedule' } });
    await env.DB.prepare('UPDATE backup_runs SET lease_until = unixepoch() + 600 WHERE id = ?1').bind(runId).run();
    expect(await stepBackup(env.DB, env.BACKUPS, runId)).toBeNull();
    await env.DB.prepare('UPDATE backup_runs SET lease_until = unixepoch() - 1 WHERE id = ?1').bind(runId).run();
    expect(await stepBackup(env.DB, env.BACKUPS, runId)).toMatchObject({ done: true });
  });

  it('gives up when its copy is gone, and leaves no file, no copies and no tail', async () => {
    const before = (await env.BACKUPS.list({ prefix: 'backups/' })).objects.length;
    const { runId } = await startBackup(env.DB, env.BACKUPS, { madeBy: { type: 'schedule' }, pageRows: 50 });
    await stepBackup(env.DB, env.BACKUPS, runId, { queries: DATA_TABLES.length + 12, ms: 60_000 });
    await env.DB.prepare(`DROP TABLE backup_copy_${runId}_time_entries`).run();
    await expect(
      (async () => {
        for (;;) if ((await stepBackup(env.DB, env.BACKUPS, runId, { queries: DATA_TABLES.length + 12, ms: 60_000 }))?.done) return;
      })(),
    ).rejects.toThrow(/no such table/);
    expect(await runOf(runId)).toMatchObject({ status: 'failed' });
    expect(await copies()).toBe(0);
    expect(await env.BACKUPS.head(tailKey(runId))).toBeNull();
    expect((await env.BACKUPS.list({ prefix: 'backups/' })).objects).toHaveLength(before);
  });

  it('starts one backup of several started at the same moment: the run’s own INSERT refuses the others', async () => {
    const starts = await Promise.allSettled([1, 2, 3, 4].map(() => startBackup(env.DB, env.BACKUPS, { madeBy: { type: 'schedule' }, pageRows: 50 })));
    const started = starts.flatMap((start) => (start.status === 'fulfilled' ? [start.value] : []));
    expect(started).toHaveLength(1);
    for (const start of starts) if (start.status === 'rejected') expect(start.reason).toBeInstanceOf(BackupRunning);
    // One set of copies, not four.
    expect(await copies()).toBe(COPIED_TABLES.length);
    // The same while the one goes on, and a start is taken again once it is done.
    await expect(startBackup(env.DB, env.BACKUPS, { madeBy: { type: 'schedule' } })).rejects.toThrow(/already running/);
    while (!(await stepBackup(env.DB, env.BACKUPS, started[0]?.runId as string))?.done);
    expect(await copies()).toBe(0);
    expect((await backupAtOnce({ madeBy: { type: 'schedule' } })).rows.users).toBeGreaterThan(0);
  });

  it('is held to one running run by the database itself, whatever the code before the INSERT reads', async () => {
    const { runId } = await startBackup(env.DB, env.BACKUPS, { madeBy: { type: 'schedule' } });
    // A second run's row, written straight, as a start that read "none running" a moment earlier would.
    await expect(env.DB.prepare("INSERT INTO backup_runs (id, key) VALUES ('second', 'backups/x.ndjson.gz')").run()).rejects.toThrow(/UNIQUE constraint failed: backup_runs\.status/);
    while (!(await stepBackup(env.DB, env.BACKUPS, runId))?.done);
  });

  it('clears a run ended without its copies and upload cleared, as migration 0017 ends all runs but one', async () => {
    const { runId } = await startBackup(env.DB, env.BACKUPS, { madeBy: { type: 'schedule' }, pageRows: 50 });
    await stepBackup(env.DB, env.BACKUPS, runId, { queries: DATA_TABLES.length + 12, ms: 60_000 });
    await env.DB.prepare("UPDATE backup_runs SET status = 'failed', error = 'ended by migration 0017: only one backup runs at a time' WHERE id = ?1").bind(runId).run();
    expect(await copies()).toBe(COPIED_TABLES.length);
    expect(await abandonStuckRuns(env.DB, env.BACKUPS)).toEqual([runId]);
    expect(await copies()).toBe(0);
    expect(await env.BACKUPS.head(tailKey(runId))).toBeNull();
    expect(await runOf(runId)).toMatchObject({ status: 'failed', error: 'ended by migration 0017: only one backup runs at a time' });
    // Cleared once: a failed run with its state emptied is left alone.
    expect(await abandonStuckRuns(env.DB, env.BACKUPS)).toEqual([]);
  });

  it('leaves no write lock on any data table: writes never wait for a backup to finish', async () => {
    const triggers = await count(`SELECT count(*) AS n FROM sqlite_master WHERE type = 'trigger' AND sql LIKE '%backup_lock%' AND tbl_name IN (${DATA_TABLES.map((t) => `'${t}'`).join(', ')})`);
    expect(triggers).toBe(0);
  });
});
