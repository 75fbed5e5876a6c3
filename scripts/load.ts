import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { addDays } from '../src/shared/dates';
import { adminToken } from './bench/provider';
import { withLocalEnv } from './local-env';
import { ensureDevVars } from './dev-vars';
import { bin, run } from './run';
import { serveBuilt } from './serve';
import { seed } from './seed';

// `npm run load`: 32 concurrent writers create tickets and log time for 30 s against the app
// in workerd; afterwards the stored rows must equal the accepted writes exactly.
const WRITERS = Number(process.env.LOAD_WRITERS || 32);
const SECONDS = Number(process.env.LOAD_SECONDS || 30);
const PORT = 9715;
const base = `http://127.0.0.1:${PORT}`;
const tag = `load-${Date.now()}`;

const stateDir = mkdtempSync(path.join(tmpdir(), 'staff-app-load-'));
process.env.LOCAL_STATE_DIR = stateDir;
// The build copies .dev.vars (the JWT secret) next to the built Worker.
ensureDevVars();
await run(bin('vite'), ['build', '--logLevel', 'warn']);
await run(bin('wrangler'), ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', stateDir]);
await withLocalEnv(seed);
const app = await serveBuilt({ port: PORT, stateDir, quiet: true, pages: false });
const token = await adminToken(base);

const accepted = { tickets: 0, timeEntries: 0 };
const failures: string[] = [];
const latencies: number[] = [];
const post = async (apiPath: string, body: unknown) => {
  const start = performance.now();
  try {
    const res = await fetch(`${base}/api/v1/${apiPath}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    latencies.push(performance.now() - start);
    if (res.status !== 201) {
      failures.push(`${apiPath}: ${res.status} ${text.slice(0, 100)}`);
      return null;
    }
    return JSON.parse(text) as { id: number };
  } catch (error) {
    failures.push(`${apiPath}: ${(error as Error).message}`);
    return null;
  }
};

// One person may log at most 24 hours a day, and every writer is the admin, so the 15-minute
// entries fill one day after another (90 of them are 22.5 hours) instead of all landing on one.
const ENTRIES_PER_DAY = 90;
let entries = 0;
const nextWorkDate = () => addDays('2020-01-01', Math.floor(entries++ / ENTRIES_PER_DAY));

const deadline = Date.now() + SECONDS * 1000;
const writer = async (w: number) => {
  for (let i = 0; Date.now() < deadline; i++) {
    const ticket = await post('tickets', { title: `${tag} writer ${w} #${i}`, priority: 'normal' });
    if (!ticket) continue;
    accepted.tickets += 1;
    if (await post(`tickets/${ticket.id}/time-entries`, { workDate: nextWorkDate(), minutes: 15, note: tag })) accepted.timeEntries += 1;
  }
};

const started = performance.now();
await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
const elapsed = (performance.now() - started) / 1000;
await app.dispose();

const stored = await withLocalEnv(async (env) => ({
  tickets: (await env.DB.prepare('SELECT count(*) AS n FROM tickets WHERE title LIKE ?1').bind(`${tag} %`).first<number>('n')) ?? 0,
  timeEntries: (await env.DB.prepare('SELECT count(*) AS n FROM time_entries WHERE note = ?1').bind(tag).first<number>('n')) ?? 0,
}));
rmSync(stateDir, { recursive: true, force: true });

const requests = latencies.length;
const sorted = [...latencies].sort((a, b) => a - b);
const p = (q: number) => (sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0).toFixed(1);
console.table({
  writers: WRITERS,
  seconds: Number(elapsed.toFixed(1)),
  requests,
  'requests/s': Number((requests / elapsed).toFixed(1)),
  'p50 ms': p(0.5),
  'p99 ms': p(0.99),
  failed: failures.length,
  'tickets accepted/stored': `${accepted.tickets}/${stored.tickets}`,
  'time entries accepted/stored': `${accepted.timeEntries}/${stored.timeEntries}`,
});
const lost = stored.tickets !== accepted.tickets || stored.timeEntries !== accepted.timeEntries;
if (failures.length) console.error('Failures:', failures.slice(0, 10));
if (lost) console.error('Stored rows differ from accepted writes.');
process.exit(failures.length || lost ? 1 : 0);
