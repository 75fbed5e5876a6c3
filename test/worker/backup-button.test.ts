import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { BackupList, BackupResult, BackupStarted } from '../../src/shared/types';
import type { Env } from '../../src/worker/env';
import worker, { createApp } from '../../src/worker/index';
import { COPIED_TABLES } from '../../src/worker/provider/db/backup/run';
import { readBackup, rowsIn } from './backup-files';
import { ORIGIN, expectConflict, readJson, signedIn, type TestUser } from './support';

// The Backup Database button (docs/api.md#settings-backups): one step in its request, 201 when
// that was enough, else 202 and the every-minute trigger finishes it; one backup at a time; none
// whose copies would not fit under D1's ceiling. The variables stand in for a large database
// (BACKUP_PAGE_ROWS: a row a page) and a full one (D1_MAX_BYTES), so neither needs gigabytes.

const app = createApp({ log: () => {} });
type Vars = Partial<Pick<Env, 'BACKUP_PAGE_ROWS' | 'D1_MAX_BYTES'>>;

const call = (path: string, token: string, vars: Vars = {}, method = 'GET') =>
  app.fetch(new Request(`${ORIGIN}/api/v1/${path}`, { method, headers: { authorization: `Bearer ${token}` } }), { ...env, ...vars }, createExecutionContext());

const post = (token: string, vars: Vars = {}) => call('settings/backup-db', token, vars, 'POST');
const list = async (token: string, vars: Vars = {}) => {
  const { status, body } = await readJson<BackupList>(await call('settings/backups', token, vars));
  expect(status).toBe(200);
  return body;
};

/** One invocation of a Cron Trigger, as Cloudflare would run it. */
const trigger = async (cron: string, vars: Vars = {}) => {
  const ctx = createExecutionContext();
  await (worker.scheduled as ExportedHandlerScheduledHandler<Env>)(createScheduledController({ scheduledTime: new Date(), cron }), { ...env, ...vars }, ctx);
  await waitOnExecutionContext(ctx);
};
const EVERY_MINUTE = '* * * * *';
const DAILY = '0 3 * * *';

const count = async (sql: string, ...params: unknown[]) => (await env.DB.prepare(sql).bind(...params).first<number>('n')) ?? 0;
const copies = () => count("SELECT count(*) AS n FROM sqlite_master WHERE name LIKE 'backup_copy_%'");
const runs = () => count('SELECT count(*) AS n FROM backup_runs');

/** The every-minute trigger, minute after minute, until no backup is under way; how many it took. */
const finishByTrigger = async (token: string, vars: Vars) => {
  for (let minute = 1; minute <= 30; minute++) {
    await trigger(EVERY_MINUTE, vars);
    if (!(await list(token)).running) return minute;
  }
  throw new Error('the backup was still running after 30 minutes of steps');
};

// A row a page: the request's 200 queries read under 200 rows, and there are many more.
const LARGE: Vars = { BACKUP_PAGE_ROWS: '1' };

let token: string;
let user: TestUser;
beforeAll(async () => {
  ({ token, user } = await signedIn());
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400)
     INSERT INTO tickets (title, reporter_id) SELECT 'button seed ' || i, ?1 FROM n`,
  )
    .bind(user.id)
    .run();
});

describe('POST settings/backup-db', () => {
  it('answers 201 with the backup when one step is enough, and the list shows it with the database size', async () => {
    const { status, body } = await readJson<BackupResult>(await post(token));
    expect(status).toBe(201);
    expect(body.rows.tickets).toBeGreaterThanOrEqual(400);
    const listed = await list(token);
    expect(listed.items[0]).toMatchObject({ key: body.key, madeBy: { type: 'user', id: user.id } });
    expect(listed.running).toBeNull();
    expect(await copies()).toBe(0);
    // The size is D1's own figure (meta.size_after), against its 10 GB.
    const size = (await env.DB.prepare('SELECT 1').run()).meta.size_after;
    expect(listed.database).toEqual({ bytes: size, limitBytes: 10_000_000_000, backupBytes: Math.ceil(size * 0.64) });
    expect(size).toBeGreaterThan(100_000);
  });

  it('answers 202 with the run when one step is not enough; the list shows its progress; the minute trigger finishes it', async () => {
    const { status, body } = await readJson<BackupStarted>(await post(token, LARGE));
    expect(status).toBe(202);
    expect(body).toEqual({ runId: expect.stringMatching(/^[0-9a-f]{16}$/) });

    const { running, items } = await list(token);
    expect(running).toMatchObject({ runId: body.runId, key: expect.stringMatching(/^backups\//), startedAt: expect.any(String), rowsTotal: expect.any(Number) });
    expect(running?.rowsDone).toBeGreaterThan(0);
    expect(running?.rowsDone).toBeLessThan(running?.rowsTotal ?? 0);
    expect(items.map(({ key }) => key)).not.toContain(running?.key);

    // The request's step kept to its budget of queries, far under D1's 1,000 per invocation.
    const step = await env.DB.prepare('SELECT max_step_queries AS n FROM backup_runs WHERE id = ?1').bind(body.runId).first<number>('n');
    expect(step).toBeGreaterThan(100);
    expect(step).toBeLessThanOrEqual(200);

    expect(await finishByTrigger(token, LARGE)).toBeGreaterThan(1);
    const after = await list(token);
    expect(after.running).toBeNull();
    expect(after.items[0]).toMatchObject({ key: running?.key, madeBy: { type: 'user', id: user.id } });
    const file = await readBackup(running?.key as string);
    expect(rowsIn(file, 'tickets').length).toBe(await count('SELECT count(*) AS n FROM tickets'));
    // Finished by the trigger, recorded as the person's, with the request that started it.
    const entry = await env.DB.prepare("SELECT actor_id, request_id FROM audit_log WHERE action = 'backup' AND changes LIKE ?1").bind(`%${running?.key as string}%`).first();
    expect(entry).toMatchObject({ actor_id: user.id, request_id: expect.any(String) });
    expect(await copies()).toBe(0);
  }, 120_000);

  it('starts exactly one of several clicks at the same moment; the others get 409 with a message', async () => {
    const before = await runs();
    const answers = await Promise.all([1, 2, 3].map(() => post(token, LARGE)));
    const statuses = answers.map(({ status }) => status).sort();
    expect(statuses).toEqual([202, 409, 409]);
    for (const answer of answers.filter(({ status }) => status === 409)) {
      expect((await expectConflict(answer)).detail).toMatch(/^A backup is already running(, started \d{4}-\d\d-\d\d \d\d:\d\d UTC)?\. It goes on by itself/);
    }
    expect(await runs()).toBe(before + 1);
    expect(await copies()).toBe(COPIED_TABLES.length);

    // Still refused while it runs, from another person too; taken again once it is done.
    const other = await signedIn('staff');
    expect((await expectConflict(await post(other.token))).detail).toMatch(/^A backup is already running, started \d{4}-\d\d-\d\d \d\d:\d\d UTC\./);
    await finishByTrigger(token, LARGE);
    expect((await post(other.token)).status).toBe(201);
  }, 120_000);

  it('leaves the daily backup to a backup made by hand that is still running', async () => {
    expect((await post(token, LARGE)).status).toBe(202);
    const before = await runs();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      await trigger(DAILY, LARGE);
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^scheduled backup skipped: A backup is already running/));
    } finally {
      warn.mockRestore();
    }
    expect(await runs()).toBe(before);
    await finishByTrigger(token, LARGE);
  }, 120_000);

  it('refuses a backup whose copies would not fit under the ceiling, copying nothing, and makes one once there is room', async () => {
    const { database } = await list(token);
    // The copies need about 64% of the size again: 150% of it is too little room, 200% enough.
    const tight: Vars = { D1_MAX_BYTES: String(Math.floor(database.bytes * 1.5)) };
    const before = await runs();
    const refused = await expectConflict(await post(token, tight));
    expect(refused.detail).toMatch(/^Not enough room for a backup: the database is [\d.]+ [kMG]B of D1's [\d.]+ [kMG]B, and a backup needs about [\d.]+ [kMG]B more while it runs\.$/);
    expect(await runs()).toBe(before);
    expect(await copies()).toBe(0);
    // The list says the same, with the ceiling it was held to.
    expect((await list(token, tight)).database).toMatchObject({ limitBytes: Number(tight.D1_MAX_BYTES) });

    // The schedule is held to it too: the daily run fails, and starts nothing.
    await expect(trigger(DAILY, tight)).rejects.toThrow(/Not enough room for a backup/);
    expect(await runs()).toBe(before);

    expect((await post(token, { D1_MAX_BYTES: String(database.bytes * 2) })).status).toBe(201);
  });

  it('gives up a run whose steps keep dying before starting, so it does not hold off new ones', async () => {
    expect((await post(token, LARGE)).status).toBe(202);
    const stuck = await env.DB.prepare("SELECT id FROM backup_runs WHERE status = 'running'").first<string>('id');
    // Three steps in a row died holding it (run.ts MAX_ATTEMPTS), and the lease has lapsed.
    await env.DB.prepare('UPDATE backup_runs SET attempts = 3, lease_until = 0 WHERE id = ?1').bind(stuck).run();
    expect((await post(token)).status).toBe(201);
    expect(await env.DB.prepare('SELECT status, error FROM backup_runs WHERE id = ?1').bind(stuck).first()).toMatchObject({ status: 'failed', error: expect.stringMatching(/^gave up after 3 steps/) });
    expect(await copies()).toBe(0);
  });

  it('takes D1’s 10 GB and 5,000 rows a page when the variables are missing or malformed', async () => {
    for (const value of ['', 'ten', '-5', '0', '1e9', '12.5']) {
      expect((await list(token, { D1_MAX_BYTES: value })).database.limitBytes, value).toBe(10_000_000_000);
    }
    // A malformed page size reads in 5,000-row pages: this database is one step, so 201.
    expect((await post(token, { BACKUP_PAGE_ROWS: 'lots' })).status).toBe(201);
  });
});
