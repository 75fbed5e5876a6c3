import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { withLocalEnv } from '../local-env';
import { bin, run } from '../run';
import { seed } from '../seed';
import { serveBuilt } from '../serve';
import { adminToken } from './provider';
import { median, timeEach, type BenchRow } from './stats';

const PORT = 9719;
const API_URL = `http://127.0.0.1:${PORT}`;
const ROWS = 10_000;
const RUNS = 3;

/** A vendor's file of `ROWS` rows for `period`, every row with its own reference. */
const vendorCsv = (period: string, company: string) =>
  [
    'period,company,description,quantity,unit_price,reference',
    ...Array.from({ length: ROWS }, (_, i) => `${period},${company},"Tracker ${i + 1}, monthly data",${1 + (i % 9)},${(i % 5000) / 100},BENCH-${period}-${i + 1}`),
  ].join('\r\n');

/**
 * A 10,000-row ledger import in workerd on local D1 (README "Ledger imports"): the dry run that
 * checks every row, and the import that writes them as draft lines in one batch. A fresh seeded
 * database each run, so every import is of new lines (no references already there).
 */
export const benchLedgerImport = async (): Promise<BenchRow[]> => {
  const stateDir = mkdtempSync(path.join(tmpdir(), 'staff-app-import-bench-'));
  const previous = process.env.LOCAL_STATE_DIR;
  process.env.LOCAL_STATE_DIR = stateDir;
  try {
    await run(bin('wrangler'), ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', stateDir]);
    await withLocalEnv(seed);
    const workerd = await serveBuilt({ port: PORT, stateDir, quiet: true, pages: false });
    try {
      return await measure();
    } finally {
      await workerd.dispose();
    }
  } finally {
    process.env.LOCAL_STATE_DIR = previous;
    rmSync(stateDir, { recursive: true, force: true });
  }
};

const measure = async (): Promise<BenchRow[]> => {
  const token = await adminToken(API_URL);
  const companies = (await (await fetch(`${API_URL}/api/v1/companies?pageSize=1`, { headers: { authorization: `Bearer ${token}` } })).json()) as { items: { name: string }[] };
  const company = companies.items[0]?.name;
  if (!company) throw new Error('the seeded database has no company');
  const send = async (csv: string, dryRun: boolean, expected: number) => {
    const res = await fetch(`${API_URL}/api/v1/invoices/autofi/lines/import?dryRun=${dryRun}&fileName=bench.csv`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
      body: csv,
    });
    const body = (await res.json()) as { rows?: number; created?: number; errors?: unknown[] };
    if (res.status !== expected || (dryRun ? body.rows !== ROWS || body.errors?.length : body.created !== ROWS)) {
      throw new Error(`import (dryRun=${dryRun}) answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
    }
  };
  const files = Array.from({ length: RUNS }, (_, i) => vendorCsv(`2035-${String(i + 1).padStart(2, '0')}`, company));
  // One dry run first, so the figure is not the first read of the companies and lines from disk.
  await send(files[0] as string, true, 200);
  const dryRuns = await timeEach(RUNS, (i) => send(files[i] as string, true, 200));
  const imports = await timeEach(RUNS, (i) => send(files[i] as string, false, 201));
  const row = (figure: string, times: number[], budgetMs: number): BenchRow => {
    const worst = Math.max(...times);
    return {
      figure,
      measured: `${(worst / 1000).toFixed(2)} s slowest of ${RUNS} (median ${(median(times) / 1000).toFixed(2)} s)`,
      budget: `≤ ${budgetMs / 1000} s`,
      pass: worst <= budgetMs,
      value: worst,
    };
  };
  return [row('ledger import dry run, 10,000 rows (workerd, local D1)', dryRuns, 2000), row('ledger import, 10,000 rows as draft lines (workerd, local D1)', imports, 5000)];
};
