import autocannon from 'autocannon';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Miniflare } from 'miniflare';
import { bin } from '../run';
import { SECURITY_HEADERS } from '../../src/worker/security-headers';
import { BUILT_CONFIG, serveBuilt, waitUntilUp } from '../serve';
import type { BenchRow } from './stats';

const SECONDS = 10;
const UPSTREAM_PORT = 9711;
const APP_PORT = 9712;
const ANSWERS_PORT = 9717;
const FORWARDS_PORT = 9718;
const RAW_ANSWERS_PORT = 9719;
const LOGGED_FORWARDS_PORT = 9720;
const BODY = '{"ok":true,"items":[1,2,3]}';

// The upstream runs in its own process so the load generator does not share its event loop.
const UPSTREAM_SOURCE = `require('node:http').createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('${BODY}');
}).listen(${UPSTREAM_PORT}, '127.0.0.1');`;

// Two Workers in the same runtime as the app, to read off what workerd itself costs on this
// machine: one only answers; one only forwards to the upstream and returns what it gets.
const ANSWERS = `export default { fetch() { return new Response('${BODY}', { headers: { 'content-type': 'application/json' } }); } };`;
const FORWARDS = `export default { fetch(request) { return fetch('http://127.0.0.1:${UPSTREAM_PORT}/v1/ping', { headers: request.headers }); } };`;
// The same, plus what every answer of the app must carry and every API request must leave: the
// security headers, no-store and a request id, and the request log's one JSON line
// (src/worker/request-log.ts, the same fields written the same way). The least a passthrough that
// keeps them can cost here.
const REQUEST_ID = crypto.randomUUID();
const ANSWER_HEADERS = JSON.stringify([...SECURITY_HEADERS, ['Cache-Control', 'no-store'], ['X-Request-Id', REQUEST_ID]]);
const LOGGED_FORWARDS = `const HEADERS = ${ANSWER_HEADERS};
export default { async fetch(request) {
  const started = performance.now();
  const upstream = await fetch('http://127.0.0.1:${UPSTREAM_PORT}/v1/ping', { headers: request.headers });
  const response = new Response(upstream.body, upstream);
  for (const [name, value] of HEADERS) response.headers.set(name, value);
  const ms = Math.round((performance.now() - started) * 10) / 10;
  console.log(JSON.stringify({ at: new Date().toISOString(), requestId: '${REQUEST_ID}', method: request.method, route: '/api/v1/ping', status: response.status, ms, userId: null }));
  return response;
} };`;

/**
 * The answering Worker in workerd alone, from a hand-written config: Miniflare, which `npm start`
 * and the rows above use, puts its own entry Worker in front of every request.
 */
const startRawWorkerd = (dir: string, compatibilityDate: string) => {
  writeFileSync(path.join(dir, 'worker.js'), ANSWERS);
  writeFileSync(
    path.join(dir, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = (modules = [(name = "worker.js", esModule = embed "worker.js")], compatibilityDate = "${compatibilityDate}"))],
  sockets = [(name = "http", address = "127.0.0.1:${RAW_ANSWERS_PORT}", http = (), service = "main")]
);
`,
  );
  return spawn(path.resolve(bin('workerd')), ['serve', path.join(dir, 'config.capnp')], { stdio: 'ignore' });
};

/**
 * The workerd process listening on `url`'s port: each Miniflare runs its own, so the CPU it spends
 * per answer can be read apart from whatever else the machine is doing. Null where `ss` is missing.
 */
const processOf = (url: string) => {
  try {
    const listening = execFileSync('ss', ['-ltnpH', `sport = :${new URL(url).port}`], { encoding: 'utf8' });
    const pid = /pid=(\d+)/.exec(listening)?.[1];
    return pid ? Number(pid) : null;
  } catch {
    return null;
  }
};

/** User and system CPU time of a process so far, in clock ticks (fields 14 and 15 of /proc/<pid>/stat). */
const cpuTicks = (pid: number | null) => {
  if (pid === null) return Number.NaN;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return Number(fields[11]) + Number(fields[12]);
};

const load = (url: string, connections: number, duration = SECONDS) =>
  autocannon({ url, connections, duration, headers: { authorization: 'Bearer bench' } });

type Result = Awaited<ReturnType<typeof load>>;

const ROUNDS = 6;
// Of the logging forwarder's throughput (docs/decisions.md#performance-budgets).
const THROUGHPUT_BUDGET = 0.85;

/**
 * Two addresses under the same load in alternating rounds (A B, B A, A B …), each `seconds` long:
 * a burst of other work on the machine lands on both alike, where two long loads one after the
 * other let it land on one. Answers per second over all rounds, and the failures.
 */
const alternate = async (a: string, b: string, connections: number, seconds = SECONDS / 2) => {
  const pids = [processOf(a), processOf(b)];
  const totals = [
    { requests: 0, seconds: 0, failed: 0, ticks: 0 },
    { requests: 0, seconds: 0, failed: 0, ticks: 0 },
  ];
  for (let round = 0; round < ROUNDS; round += 1) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const which of order) {
      const before = cpuTicks(pids[which]!);
      const result = await load(which === 0 ? a : b, connections, seconds);
      const total = totals[which]!;
      total.ticks += cpuTicks(pids[which]!) - before;
      total.requests += result.requests.total;
      total.seconds += result.duration;
      total.failed += result.errors + result.non2xx;
    }
  }
  const [first, second] = totals.map((total) => ({ perSecond: total.requests / total.seconds, failed: total.failed, ticksPerAnswer: total.ticks / total.requests }));
  return { a: first!, b: second! };
};
const ms = (value: number) => `${value.toFixed(2)} ms`;
// Linux counts CPU time in ticks of 10 ms (USER_HZ 100).
const perAnswer = (ticks: number) => `${Math.round(ticks * 10_000)} µs`;
const failures = (...results: Result[]) => results.reduce((sum, r) => sum + r.errors + r.non2xx, 0);

/**
 * The passthrough's cost: the same small JSON request straight to a local upstream and through
 * the Worker in workerd, compared in the same run. Latency is read at one connection (what the
 * Worker adds to a request); throughput at ten (how much of the upstream's capacity is left). At
 * ten connections the single-threaded runtime is saturated here, so its latency there is mostly
 * queueing, reported alongside.
 */
export const benchPassthrough = async (): Promise<BenchRow[]> => {
  const upstream = spawn(process.execPath, ['-e', UPSTREAM_SOURCE], { stdio: 'ignore' });
  const stateDir = mkdtempSync(path.join(tmpdir(), 'bench-passthrough-'));
  const app = await serveBuilt({ port: APP_PORT, stateDir, upstream: `http://127.0.0.1:${UPSTREAM_PORT}`, quiet: true, pages: false });
  const { compatibility_date: compatibilityDate } = JSON.parse(readFileSync(BUILT_CONFIG, 'utf8')) as { compatibility_date: string };
  // Their console output goes where the app's does under `serveBuilt({ quiet: true })`: read and dropped.
  const floorWorker = (script: string, port: number) =>
    new Miniflare({ modules: true, script, compatibilityDate, host: '127.0.0.1', port, logRequests: false, handleRuntimeStdio: (stdout, stderr) => (stdout.resume(), stderr.pipe(process.stderr)) });
  const answers = floorWorker(ANSWERS, ANSWERS_PORT);
  const forwards = floorWorker(FORWARDS, FORWARDS_PORT);
  const loggedForwards = floorWorker(LOGGED_FORWARDS, LOGGED_FORWARDS_PORT);
  const raw = startRawWorkerd(stateDir, compatibilityDate);
  try {
    await Promise.all([answers.ready, forwards.ready, loggedForwards.ready]);
    const url = (port: number, pathname: string) => `http://127.0.0.1:${port}${pathname}`;
    const direct = url(UPSTREAM_PORT, '/v1/ping');
    const through = url(APP_PORT, '/api/v1/ping');
    const floors = {
      answers: url(ANSWERS_PORT, '/'),
      forwards: url(FORWARDS_PORT, '/'),
      loggedForwards: url(LOGGED_FORWARDS_PORT, '/'),
      rawAnswers: url(RAW_ANSWERS_PORT, '/'),
    };
    for (const address of [direct, through, floors.rawAnswers]) await waitUntilUp(address);
    for (const address of [direct, through, ...Object.values(floors)]) await load(address, 10, 2);

    const directOne = await load(direct, 1);
    const throughOne = await load(through, 1);
    const directTen = await load(direct, 10);
    const throughTen = await load(through, 10);
    // The budget's two figures, taken in alternating rounds.
    const budget = await alternate(through, floors.loggedForwards, 10);
    const forwardsTen = await load(floors.forwards, 10);
    const answersTen = await load(floors.answers, 10);
    const rawAnswersTen = await load(floors.rawAnswers, 10);
    const errors = failures(directOne, throughOne, directTen, throughTen) + budget.a.failed + budget.b.failed;
    const p50Added = throughOne.latency.p50 - directOne.latency.p50;
    const ratio = throughTen.requests.average / directTen.requests.average;
    const ofFloor = throughTen.requests.average / forwardsTen.requests.average;
    const ofLogged = budget.a.perSecond / budget.b.perSecond;
    const reported = (figure: string, measured: string, value: number, detail?: string): BenchRow => ({ figure, measured, budget: 'reported', pass: true, value, detail });
    const added = (figure: string, base: Result, worker: Result, p: 'p50' | 'p99') =>
      reported(figure, `${worker.latency[p] - base.latency[p]} ms (${base.latency[p]} → ${worker.latency[p]} ms)`, worker.latency[p] - base.latency[p]);
    const floor = (figure: string, result: Result, detail?: string) => {
      const share = result.requests.average / directTen.requests.average;
      return reported(figure, `${(share * 100).toFixed(0)}% (${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms)`, share, detail);
    };
    return [
      {
        figure: 'passthrough p50 added latency (1 connection)',
        measured: `${p50Added} ms (${directOne.latency.p50} → ${throughOne.latency.p50} ms; mean ${ms(directOne.latency.mean)} → ${ms(throughOne.latency.mean)})`,
        budget: '≤ 1 ms',
        pass: p50Added <= 1 && errors === 0,
        value: p50Added,
        detail: `${SECONDS} s per load, ${errors} errors; autocannon reports whole milliseconds`,
      },
      added('passthrough p99 added latency (1 connection)', directOne, throughOne, 'p99'),
      // A load that answered nothing gives no ratio: the row says so rather than fail the app.
      budget.a.perSecond > 0 && budget.b.perSecond > 0
        ? {
            figure: 'passthrough throughput vs a Worker that forwards, sets the headers every answer keeps and writes the request log line (10 connections)',
            measured: `${(ofLogged * 100).toFixed(0)}% (${Math.round(budget.a.perSecond)} / ${Math.round(budget.b.perSecond)} req/s)`,
            budget: `≥ ${THROUGHPUT_BUDGET * 100}%`,
            pass: ofLogged >= THROUGHPUT_BUDGET && errors === 0,
            value: ofLogged,
            detail: `like with like: both in workerd through Miniflare, both setting the security headers, no-store and X-Request-Id and writing one JSON log line per request; ${ROUNDS} alternating rounds of ${SECONDS / 2} s each`,
          }
        : {
            figure: 'passthrough throughput vs a Worker that forwards, sets the same headers and writes the same log line (10 connections)',
            measured: 'not measured (a load answered no requests)',
            budget: `≥ ${THROUGHPUT_BUDGET * 100}%`,
            pass: true,
            value: Number.NaN,
          },
      // The same loads read as CPU per answer of each workerd process: other work on the machine
      // slows both, but adds little to either's own CPU time.
      Number.isFinite(budget.a.ticksPerAnswer / budget.b.ticksPerAnswer)
        ? reported(
            'passthrough CPU per answer vs the Worker that forwards, sets the headers and logs (10 connections)',
            `${((budget.b.ticksPerAnswer / budget.a.ticksPerAnswer) * 100).toFixed(0)}% (${perAnswer(budget.a.ticksPerAnswer)} / ${perAnswer(budget.b.ticksPerAnswer)} of workerd CPU per answer)`,
            budget.b.ticksPerAnswer / budget.a.ticksPerAnswer,
            'the forwarder’s CPU per answer over the passthrough’s: a throughput ratio that other load on the machine barely moves',
          )
        : reported('passthrough CPU per answer vs the Worker that forwards, sets the headers and logs (10 connections)', 'not measured (no workerd process found for a port)', Number.NaN),
      reported(
        'passthrough throughput vs a Worker that only forwards (10 connections)',
        `${(ofFloor * 100).toFixed(0)}% (${Math.round(throughTen.requests.average)} / ${Math.round(forwardsTen.requests.average)} req/s)`,
        ofFloor,
        'the bare forwarder sets no header and writes no log line',
      ),
      reported(
        'passthrough throughput vs direct (10 connections)',
        `${(ratio * 100).toFixed(0)}% (${Math.round(throughTen.requests.average)} / ${Math.round(directTen.requests.average)} req/s)`,
        ratio,
      ),
      added('passthrough p50 added latency (10 connections, runtime saturated)', directTen, throughTen, 'p50'),
      floor('workerd floor: a Worker that only answers, vs direct (10 connections)', answersTen),
      floor(
        'workerd floor: a Worker that only forwards, vs direct (10 connections)',
        forwardsTen,
        'fetch to the upstream and return it: the least any passthrough in this runtime can cost',
      ),
      floor(
        'workerd floor without Miniflare: a Worker that only answers, vs direct (10 connections)',
        rawAnswersTen,
        'workerd from a hand-written config, no entry Worker in front',
      ),
    ];
  } finally {
    await Promise.all([answers.dispose(), forwards.dispose(), loggedForwards.dispose(), app.dispose()]);
    upstream.kill('SIGTERM');
    raw.kill('SIGTERM');
    rmSync(stateDir, { recursive: true, force: true });
  }
};
