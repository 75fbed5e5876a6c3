import { existsSync } from 'node:fs';
import { addDays, addMonths, monthBounds, utcDay } from '../../src/shared/dates';
import { fillScaleData } from '../demo-data';
import { withLocalEnv } from '../local-env';
import { bin, run } from '../run';
import { DEMO_ADMIN_EMAIL, demoAdminPassword, seed } from '../seed';
import { serveBuilt, waitUntilUp } from '../serve';
import { percentile, timeEach, type BenchRow } from './stats';

// Kept between runs (git-ignored): filling 1,000,000 time entries takes about a minute.
export const SCALE_STATE_DIR = 'bench/.state';
const PORT = 9713;
const API_PORT = 9716;
export const SCALE_URL = `http://127.0.0.1:${PORT}`;
const API_URL = `http://127.0.0.1:${API_PORT}`;

/** Migrates, seeds and fills the benchmark database to scale. */
export const prepareScaleData = async () => {
  process.env.LOCAL_STATE_DIR = SCALE_STATE_DIR;
  const fresh = !existsSync(SCALE_STATE_DIR);
  await run(bin('wrangler'), ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', SCALE_STATE_DIR]);
  await withLocalEnv(async (env) => {
    await seed(env);
    if (fresh) console.log('Filling 100,000 tickets, 1,000,000 time entries and 1,000,000 audit entries (a minute or two)…');
    console.log('Scale data:', await fillScaleData(env.DB));
  });
};

/** The app with pages, as `npm start` serves it, on the scale database, for the browser figures. */
export const serveScaleApp = async () => {
  const app = await serveBuilt({ port: PORT, stateDir: SCALE_STATE_DIR, quiet: true });
  await waitUntilUp(`${SCALE_URL}/login/`);
  return app;
};

export const adminToken = async (base = SCALE_URL) => {
  const res = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: DEMO_ADMIN_EMAIL, password: demoAdminPassword(), audience: 'staff-app' }),
  });
  if (!res.ok) throw new Error(`bench login failed: ${res.status}`);
  return ((await res.json()) as { token: string }).token;
};

const STATUSES = ['open', 'in_progress', 'on_hold', 'resolved', 'closed'];
const SEARCHES = ['router', 'vpn disc', 'printer slow', 'fails sync', '#4242', 'acme', 'sam smi', '2026-09', 'screenshot', 'azure sub'];
const TWO_WORDS = ['router slow', 'vpn disconnecting', 'printer replacement', 'laptop login', 'tracker sync', 'customer confirm'];
const SORTS = ['-createdAt', 'priority', '-updatedAt', 'id'];

const monthRange = (offset: number) => monthBounds(addMonths(monthBounds(utcDay()).from, -offset));

/** Provider response times at 100,000 tickets, 1,000,000 time entries and 1,000,000 audit entries, over HTTP on loopback. */
export const benchProvider = async (): Promise<BenchRow[]> => {
  const workerd = await serveBuilt({ port: API_PORT, stateDir: SCALE_STATE_DIR, quiet: true, pages: false });
  try {
    return await measureProvider();
  } finally {
    await workerd.dispose();
  }
};

const measureProvider = async (): Promise<BenchRow[]> => {
  const token = await adminToken(API_URL);
  const get = async (path: string) => {
    const res = await fetch(`${API_URL}/api/v1/${path}`, { headers: { authorization: `Bearer ${token}` } });
    if (!res.ok) throw new Error(`${path} answered ${res.status}`);
    await res.arrayBuffer();
  };
  const ticketPath = (i: number) => `tickets?status=${STATUSES[i % STATUSES.length]}&sort=${SORTS[i % SORTS.length]}&page=${1 + (i % 5)}&pageSize=25`;
  // Every one of the 20 distinct calls twice first, so the figure is the steady state, not the
  // first read of each index from disk.
  await timeEach(40, (i) => get(ticketPath(i)));
  const tickets = await timeEach(200, (i) => get(ticketPath(i)));

  const month = monthRange(1);
  const year = { from: addDays(utcDay(), -364), to: utcDay() };
  const timesheet = await timeEach(20, () => get(`reports/timesheet?from=${month.from}&to=${month.to}`));
  const report = await timeEach(20, () => get(`reports/tickets?from=${year.from}&to=${year.to}&groupBy=category`));

  // What people type into the palette and the ticket list's box: common and rare words, a
  // prefix still being typed, a ticket number, names and a statement period.
  const palette = (i: number) => `search?q=${encodeURIComponent(SEARCHES[i % SEARCHES.length] as string)}&limit=10`;
  const wordsList = (i: number) => `tickets?q=${encodeURIComponent(TWO_WORDS[i % TWO_WORDS.length] as string)}&page=1&pageSize=25`;
  await timeEach(SEARCHES.length * 2, (i) => get(palette(i)));
  const searches = await timeEach(200, (i) => get(palette(i)));
  await timeEach(TWO_WORDS.length * 2, (i) => get(wordsList(i)));
  const wordLists = await timeEach(200, (i) => get(wordsList(i)));
  // A ticket drawer's History section: 20 tickets spread over the table, each read twice first.
  const historyPath = (i: number) => `audit?entity=ticket&entityId=${1 + ((i % 20) * 4_999) % 100_000}&pageSize=25`;
  await timeEach(40, (i) => get(historyPath(i)));
  const history = await timeEach(200, (i) => get(historyPath(i)));

  const row = (figure: string, times: number[], budget: number): BenchRow => {
    const p95 = percentile(times, 95);
    return { figure, measured: `${p95.toFixed(1)} ms p95 (p50 ${percentile(times, 50).toFixed(1)} ms)`, budget: `≤ ${budget} ms`, pass: p95 <= budget, value: p95 };
  };
  return [
    row('ticket list, filter + sort, 100k tickets (200 requests)', tickets, 20),
    row('timesheet month, 1M time entries (20 requests)', timesheet, 150),
    row('ticket report year, 100k tickets and 1M time entries (20 requests)', report, 150),
    row('GET search, 100k tickets and their comments (200 requests)', searches, 20),
    row('ticket list with a two-word q, 100k tickets (200 requests)', wordLists, 30),
    row("a record's history at 1M audit entries (200 requests)", history, 20),
  ];
};
