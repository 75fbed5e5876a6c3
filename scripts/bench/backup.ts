import { createReadStream, readFileSync, readdirSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import type { Manifest } from '../../src/worker/provider/db/backup-format';
import { storedBackups } from '../../src/worker/provider/db/backup-list';
import { withLocalEnv } from '../local-env';
import { downloadBackup, restoreFile } from '../restore';
import { serveBuilt } from '../serve';
import { connectToWorker } from './inspector';
import { SCALE_STATE_DIR } from './provider';
import type { BenchRow } from './stats';

const PORT = 9718;
const INSPECTOR_PORT = 9716;
const RESTORE_STATE_DIR = 'bench/.restore-state';
const MEMORY_BUDGET_MB = 64;
const MIN_READINGS = 20;
const MB = 1024 * 1024;

/** Process ids of the workerd processes this process started. */
const workerdChildren = () =>
  readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const match = /^\d+ \((.*)\) \S (\d+)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'));
        return match?.[1] === 'workerd' && Number(match[2]) === process.pid;
      } catch {
        return false; // the process ended while the list was read
      }
    });

const statusKb = (pid: string, field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

interface Growth {
  /** How far the reading rose above its value before the work. */
  bytes: number;
  /** Readings that came back while the work ran: too few, and the peak is not known. */
  samples: number;
}

/** Samples `read` every `everyMs` while `work` runs, each reading in its own loop. */
export const peaksDuring = async <K extends string, T>(readers: Record<K, () => Promise<number> | number>, everyMs: number, work: Promise<T>) => {
  let running = true;
  const watch = async (read: () => Promise<number> | number): Promise<Growth> => {
    const base = await read();
    let peak = base;
    let samples = 0;
    while (running) {
      const value = await read();
      if (running) samples += 1;
      peak = Math.max(peak, value);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
    return { bytes: peak - base, samples };
  };
  const names = Object.keys(readers) as K[];
  const watching = names.map((name) => watch(readers[name]));
  const result = await work.finally(() => (running = false));
  const growths = await Promise.all(watching);
  return { result, growth: Object.fromEntries(names.map((name, i) => [name, growths[i]])) as Record<K, Growth> };
};

/**
 * Runs the Cron Trigger's handler on the built Worker over the database in `stateDir`, as
 * Cloudflare would at 03:00, and samples memory while it runs: the Worker's own JavaScript heap
 * (what Cloudflare's 128 MB limit applies to) through the inspector, and the workerd process's
 * resident memory. Locally that process also hosts the D1 and R2 simulators, whose SQLite page
 * cache grows with the data read (D1 refuses `PRAGMA cache_size`); on Cloudflare they run apart.
 */
export const scheduledBackup = async (stateDir: string, measure = false) => {
  const before = workerdChildren();
  const mf = await serveBuilt({ port: PORT, stateDir, quiet: true, pages: false, triggerHandlers: true, inspectorPort: measure ? INSPECTOR_PORT : undefined });
  const worker = measure ? await connectToWorker(INSPECTOR_PORT) : null;
  try {
    const pid = workerdChildren().find((candidate) => !before.includes(candidate));
    if (!pid) throw new Error('could not find the workerd process');
    const start = performance.now();
    const run = fetch(`http://127.0.0.1:${PORT}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent('0 3 * * *')}`);
    const { result: res, growth } = await peaksDuring({ heap: () => worker?.heapUsed() ?? 0, rss: () => statusKb(pid, 'VmRSS') }, 50, run);
    const seconds = (performance.now() - start) / 1000;
    if (!res.ok) throw new Error(`the scheduled handler answered ${res.status}: ${await res.text()}`);
    return { seconds, heap: growth.heap, rss: growth.rss };
  } finally {
    worker?.close();
    await mf.dispose();
  }
};

/** The newest backup in the local bucket under `stateDir`. */
export const newestBackup = async (stateDir: string) => {
  process.env.LOCAL_STATE_DIR = stateDir;
  const [newest] = await withLocalEnv((env) => storedBackups(env.BACKUPS));
  if (!newest) throw new Error(`no backup in ${stateDir}`);
  return newest;
};

/** The manifest line that ends a backup file, read by streaming through it. */
const manifestOfFile = async (file: string) => {
  let last = '';
  for await (const line of createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity })) last = line;
  return (JSON.parse(last) as { manifest: Manifest }).manifest;
};

/**
 * Restores the scale backup into an empty database with `npm run db:restore`'s code, backs the
 * restored database up the same way, and compares the two manifests: equal row counts and
 * SHA-256 of every table's rows in id order mean the restore equals the source row for row.
 */
const restoreMatches = async (key: string, folder: string) => {
  rmSync(RESTORE_STATE_DIR, { recursive: true, force: true });
  process.env.LOCAL_STATE_DIR = SCALE_STATE_DIR;
  const original = await downloadBackup(key, folder);
  const start = performance.now();
  await restoreFile(original, RESTORE_STATE_DIR);
  const seconds = (performance.now() - start) / 1000;
  await scheduledBackup(RESTORE_STATE_DIR);
  process.env.LOCAL_STATE_DIR = RESTORE_STATE_DIR;
  const again = await downloadBackup((await newestBackup(RESTORE_STATE_DIR)).key, folder);
  const [before, after] = await Promise.all([manifestOfFile(original), manifestOfFile(again)]);
  const differing = Object.keys(before).filter((table) => JSON.stringify(before[table]) !== JSON.stringify(after[table]));
  return { seconds, differing };
};

/** The backup at 100,000 tickets and 1,000,000 time entries: time, memory, and a full restore. */
export const benchBackup = async (): Promise<BenchRow[]> => {
  const { seconds, heap, rss } = await scheduledBackup(SCALE_STATE_DIR, true);
  const backup = await newestBackup(SCALE_STATE_DIR);
  const folder = await mkdtemp(path.join(tmpdir(), 'staff-app-bench-restore-'));
  try {
    const restore = await restoreMatches(backup.key, folder);
    const heapMb = heap.bytes / MB;
    return [
      {
        figure: 'backup of the scale database, scheduled handler',
        measured: `${seconds.toFixed(1)} s (${(backup.rows ?? 0).toLocaleString('en-US')} rows, ${(backup.bytes / MB).toFixed(1)} MB gzip)`,
        budget: 'reported',
        pass: true,
        value: seconds,
      },
      {
        figure: "the Worker's heap growth during that backup (peak in use, less before)",
        measured: `${heapMb.toFixed(1)} MB (${heap.samples} readings)`,
        budget: `≤ ${MEMORY_BUDGET_MB} MB`,
        // A reading the isolate could not answer while busy would hide the peak.
        pass: heapMb <= MEMORY_BUDGET_MB && heap.samples >= MIN_READINGS,
        value: heapMb,
        detail: `read through the inspector while the backup ran, at least ${MIN_READINGS} readings; the Worker alone, without the D1 and R2 simulators`,
      },
      {
        figure: 'workerd process RSS growth during that backup',
        measured: `${(rss.bytes / MB).toFixed(1)} MB (${rss.samples} readings)`,
        budget: 'reported',
        pass: true,
        value: rss.bytes / MB,
        detail: "the local D1 simulator's SQLite page cache, in the same process, grows with the data read",
      },
      {
        figure: 'restore of that backup equals the source row for row',
        measured: restore.differing.length ? `differs: ${restore.differing.join(', ')}` : `equal on every table (restore ${restore.seconds.toFixed(0)} s)`,
        budget: 'equal',
        pass: restore.differing.length === 0,
        value: restore.differing.length,
      },
    ];
  } finally {
    process.env.LOCAL_STATE_DIR = SCALE_STATE_DIR;
    await rm(folder, { recursive: true, force: true });
    rmSync(RESTORE_STATE_DIR, { recursive: true, force: true });
  }
};
