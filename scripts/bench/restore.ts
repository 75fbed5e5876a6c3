import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fillScaleData } from '../demo-data';
import { withLocalEnv } from '../local-env';
import { downloadBackup, restoreFile } from '../restore';
import { bin, run } from '../run';
import { seed } from '../seed';
import { newestBackup, scheduledBackup } from './backup';
import type { BenchRow } from './stats';

const SOURCE_DIR = 'bench/.restore-source';
const TARGET_DIR = 'bench/.restore-target';
/**
 * Half the scale database (about 1,050,000 rows): large enough that keeping indexes in order row
 * by row shows, small enough that making it, backing it up and restoring it takes about a minute.
 */
const SIZE = { tickets: 50_000, timeEntries: 500_000, auditEntries: 500_000 };
/**
 * Rows per second of `npm run db:restore` on a backup of this size before its writes were
 * gathered into large chunks with the secondary indexes set aside: 1,054,353 rows in 95.5 s and
 * 101.6 s (11,040 and 10,380 rows/s), measured 2026-11-24 on the two-core VM with the code of
 * commit 5bd65b3; the faster run is the baseline. The budget is five times it.
 */
const BEFORE_ROWS_PER_SECOND = 11_040;
const SPEED_UP = 5;
/*
 * Where a restore's CPU goes, measured 2026-11-26 on a third of SIZE (361,427 rows, every 50th
 * ticket with an 80-line log) while the machine was too busy for rows per second to mean much;
 * CPU time of the whole Node process and of the workerd process, start-up included (about 1.1 to
 * 1.7 s of Node and 0.2 s of workerd for an empty backup):
 * - Node: 23.5 to 25.6 µs a row with the code before commit 67e7bb8 (four runs), 19.6 to 20.0 µs
 *   with it and b42b777 (three runs, the last two with 4f661dc too). The restore code alone, its
 *   writes swallowed: 14 to 14.6 µs a row before, 8.7 to 12.2 µs after, as the load varied. The
 *   rest is wrangler's platform proxy, which sends each statement's SQL on its own through a
 *   synchronous call (db.prepare) and so costs by the byte of SQL.
 * - workerd: 11.4 to 14.3 µs a row before and after alike, nearly all of it SQLite: the same
 *   statements in the sqlite3 library took 2.6 to 3.2 s to insert (without the full-text
 *   triggers, and the full-text indexes built after, no clearly less) and 1.1 s to build the
 *   secondary indexes again.
 * On 2026-11-26 the local restore stopped going through the proxy and wrangler's CLI
 * (scripts/local-d1-target.ts, local-migrations.ts): the bench read 30,439 rows/s before and
 * 55,699 rows/s (18.9 s) after, the machine's load 4.1 to 4.7. On the same backup, load about 5:
 * 0.8 s to the first 50,000 rows checked (9.3 s with the CLI's migrations), about 3.3 s checking,
 * 13.3 s writing, 3.6 s building indexes; 13.9 s of Node CPU, 12.8 s of workerd and the rest.
 */

/** A generated backup: the demo data topped up to SIZE, backed up by the Cron Trigger's handler. */
const generatedBackup = async (folder: string) => {
  rmSync(SOURCE_DIR, { recursive: true, force: true });
  process.env.LOCAL_STATE_DIR = SOURCE_DIR;
  await run(bin('wrangler'), ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', SOURCE_DIR]);
  await withLocalEnv(async (env) => {
    await seed(env);
    await fillScaleData(env.DB, SIZE);
  });
  await scheduledBackup(SOURCE_DIR);
  const backup = await newestBackup(SOURCE_DIR);
  return { file: await downloadBackup(backup.key, folder), rows: backup.rows ?? 0 };
};

/** `npm run db:restore`'s code on a generated backup, in rows per second, against five times the old speed. */
export const benchRestore = async (): Promise<BenchRow> => {
  const folder = await mkdtemp(path.join(tmpdir(), 'staff-app-bench-restore-'));
  try {
    const { file, rows } = await generatedBackup(folder);
    rmSync(TARGET_DIR, { recursive: true, force: true });
    const start = performance.now();
    await restoreFile(file, TARGET_DIR);
    const seconds = (performance.now() - start) / 1000;
    const perSecond = rows / seconds;
    return {
      figure: `restore of a generated backup (${rows.toLocaleString('en-US')} rows), npm run db:restore`,
      measured: `${Math.round(perSecond).toLocaleString('en-US')} rows/s (${seconds.toFixed(1)} s; before: ${BEFORE_ROWS_PER_SECOND.toLocaleString('en-US')} rows/s)`,
      budget: `≥ ${(BEFORE_ROWS_PER_SECOND * SPEED_UP).toLocaleString('en-US')} rows/s (${SPEED_UP}× before)`,
      pass: perSecond >= BEFORE_ROWS_PER_SECOND * SPEED_UP,
      value: perSecond,
      detail: 'migrations included, from the file on disk to the last index built; every 50th ticket holds an 80-line pasted log',
    };
  } finally {
    await rm(folder, { recursive: true, force: true });
    rmSync(TARGET_DIR, { recursive: true, force: true });
    rmSync(SOURCE_DIR, { recursive: true, force: true });
  }
};
