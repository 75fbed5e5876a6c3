import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import type { BackupList } from '../../src/shared/types';
import type { Env } from '../../src/worker/env';
import worker from '../../src/worker/index';
import { startBackup } from '../../src/worker/provider/db/backup/write';
import { readBackup } from './backup-files';
import { api, readJson, signedIn } from './support';

const CRON = '0 3 * * *';
const EVERY_MINUTE = '* * * * *';

/** Runs the Worker's scheduled handler as the Cron Trigger would, with `vars` over wrangler.toml's. */
const runSchedule = async (vars: Partial<Env> = {}, cron = CRON) => {
  const ctx = createExecutionContext();
  const controller = createScheduledController({ scheduledTime: new Date(), cron });
  const run = (worker.scheduled as ExportedHandlerScheduledHandler<Env>)(controller, { ...env, ...vars }, ctx);
  await run;
  await waitOnExecutionContext(ctx);
};

const keyAt = (iso: string, ext = 'ndjson.gz') => `backups/${iso.replace(/:/g, '-')}.${ext}`;
const keys = async () => (await env.BACKUPS.list({ prefix: 'backups/' })).objects.map(({ key }) => key).sort();

/** Backups as earlier runs would have left them, at chosen times. */
const seed = async (times: string[], madeBy = 'schedule') => {
  for (const time of times) await env.BACKUPS.put(keyAt(time), 'x', { customMetadata: { madeBy, rows: '1' } });
  return times.map((time) => keyAt(time));
};

beforeEach(async () => {
  const all = await keys();
  if (all.length) await env.BACKUPS.delete(all);
});

describe('the scheduled backup', () => {
  it('takes the retention defaults from wrangler.toml', () => {
    expect(env.BACKUP_KEEP_DAILY).toBe('14');
    expect(env.BACKUP_KEEP_MONTHLY).toBe('12');
  });

  it('writes the same backup as the button, made by "schedule", and reports it as the last scheduled one', async () => {
    const { token } = await signedIn();
    await runSchedule();
    const [key] = await keys();
    expect(key).toMatch(/^backups\/.*\.ndjson\.gz$/);
    expect((await env.BACKUPS.head(key as string))?.customMetadata?.madeBy).toBe('schedule');
    const file = await readBackup(key as string);
    expect(file.manifest.users?.rows).toBeGreaterThanOrEqual(1);

    const { body } = await readJson<BackupList>(await api('settings/backups', { token }));
    expect(body.items[0]).toMatchObject({ key, madeBy: { type: 'schedule' } });
    expect(body.lastScheduledAt).toBe(body.items[0]?.createdAt);
  });

  it('keeps the newest backup of each of the newest days, and the first of each of the newest months', async () => {
    const [march1, march15, april1, april2Early, april2Late, april3, april4Early, april4Late] = await seed([
      '2025-03-01T03:00:00.000Z',
      '2025-03-15T03:00:00.000Z',
      '2025-04-01T03:00:00.000Z',
      '2025-04-02T03:00:00.000Z',
      '2025-04-02T14:30:00.000Z',
      '2025-04-03T03:00:00.000Z',
      '2025-04-04T03:00:00.000Z',
      '2025-04-04T16:00:00.000Z',
    ]);
    const before = await keys();
    await runSchedule({ BACKUP_KEEP_DAILY: '3', BACKUP_KEEP_MONTHLY: '2' });
    const [fresh] = (await keys()).filter((key) => !before.includes(key));

    // Days: today's new backup, 4 April (its later one), 3 April. Months: this month's first
    // (the new one) and April's first. Everything else goes.
    expect(await keys()).toEqual([april1, april3, april4Late, fresh].sort());
    expect(await keys()).not.toContain(march1);
    expect(await keys()).not.toContain(march15);
    expect(await keys()).not.toContain(april2Early);
    expect(await keys()).not.toContain(april2Late);
    expect(await keys()).not.toContain(april4Early);
  });

  it('keeps two weeks of days and a year of months by default', async () => {
    // A daily backup at 03:00 for 400 days up to 30 September 2025.
    const days = Array.from({ length: 400 }, (_, i) => new Date(Date.UTC(2025, 8, 30 - i, 3)).toISOString());
    const seeded = await seed(days);
    await runSchedule();
    const left = await keys();
    const fresh = left.filter((key) => !seeded.includes(key));
    expect(fresh).toHaveLength(1);

    const kept = seeded.filter((key) => left.includes(key));
    // The 13 newest days (the new backup's day is the 14th), and the first of November 2024 …
    // September 2025 (the new backup's month is the 12th).
    const expectedDays = days.slice(0, 13).map((day) => keyAt(day));
    const months = ['2024-11', '2024-12', ...Array.from({ length: 9 }, (_, i) => `2025-0${i + 1}`)];
    const expectedMonths = months.map((month) => keyAt(`${month}-01T03:00:00.000Z`));
    expect(kept.sort()).toEqual([...expectedDays, ...expectedMonths].sort());
  });

  it('leaves every backup in place when the backup fails', async () => {
    const seeded = await seed(['2024-01-01T03:00:00.000Z', '2024-01-02T03:00:00.000Z', '2024-02-01T03:00:00.000Z']);
    // An unmigrated database: the backup cannot record its run, so it fails.
    const unmigrated = (await env.RESTORE_DB.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'backup_runs'").first<number>('n')) ?? 0;
    expect(unmigrated).toBe(0);
    await expect(runSchedule({ DB: env.RESTORE_DB, BACKUP_KEEP_DAILY: '1', BACKUP_KEEP_MONTHLY: '0' })).rejects.toThrow();
    expect(await keys()).toEqual(seeded.sort());
  });

  it('carries an unfinished backup on from the minute trigger, then applies retention', async () => {
    const seeded = await seed(['2024-01-01T03:00:00.000Z', '2024-01-02T03:00:00.000Z']);
    // A run the daily trigger started and left for later invocations.
    const { runId } = await startBackup(env.DB, env.BACKUPS, { madeBy: { type: 'schedule' } });
    const state = () => env.DB.prepare('SELECT status FROM backup_runs WHERE id = ?1').bind(runId).first<string>('status');
    expect(await state()).toBe('running');
    await runSchedule({ BACKUP_KEEP_DAILY: '1', BACKUP_KEEP_MONTHLY: '0' }, EVERY_MINUTE);
    expect(await state()).toBe('done');
    const remaining = await keys();
    expect(remaining).toHaveLength(1);
    expect(seeded).not.toContain(remaining[0]);
    expect((await readBackup(remaining[0] as string)).manifest.users?.rows).toBeGreaterThanOrEqual(1);
    // With nothing left to carry on, the minute trigger changes nothing.
    await runSchedule({ BACKUP_KEEP_DAILY: '1', BACKUP_KEEP_MONTHLY: '0' }, EVERY_MINUTE);
    expect(await keys()).toEqual(remaining);
  });

  it('gives up a backup whose steps keep dying before they save their place: no file, no copies', async () => {
    const { runId } = await startBackup(env.DB, env.BACKUPS, { madeBy: { type: 'schedule' } });
    // Three steps in a row that took the run and never saved (a Worker stopped over its CPU limit).
    await env.DB.prepare('UPDATE backup_runs SET attempts = 3, lease_until = unixepoch() - 1 WHERE id = ?1').bind(runId).run();
    await runSchedule({}, EVERY_MINUTE);
    const run = await env.DB.prepare('SELECT status, error FROM backup_runs WHERE id = ?1').bind(runId).first<{ status: string; error: string }>();
    expect(run).toEqual({ status: 'failed', error: 'gave up after 3 steps in a row ended without saving their place' });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name LIKE ?1").bind(`backup_copy_${runId}_%`).first<number>('n')).toBe(0);
    expect(await keys()).toEqual([]);
  });

  it('does nothing when the app uses an upstream API', async () => {
    const seeded = await seed(['2024-01-01T03:00:00.000Z', '2024-01-02T03:00:00.000Z']);
    await runSchedule({ UPSTREAM_API_URL: 'https://api.example.com', BACKUP_KEEP_DAILY: '1', BACKUP_KEEP_MONTHLY: '0' });
    expect(await keys()).toEqual(seeded.sort());
  });

  it("reports only the schedule's backups as the last scheduled one", async () => {
    const { token } = await signedIn();
    await seed(['2025-05-01T03:00:00.000Z']);
    await seed(['2025-05-02T09:00:00.000Z'], 'user:1');
    const { body } = await readJson<BackupList>(await api('settings/backups', { token }));
    expect(body.lastScheduledAt).toBe('2025-05-01T03:00:00.000Z');
  });
});
