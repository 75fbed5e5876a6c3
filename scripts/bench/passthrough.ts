import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Miniflare } from 'miniflare';
import { BUILT_CONFIG, serveBuilt, waitUntilUp } from '../serve';
import type { BenchRow } from './stats';

const CONNECTIONS = 10;
const SECONDS = 10;
const UPSTREAM_PORT = 9711;
const APP_PORT = 9712;
const FLOOR_PORT = 9717;

// A Worker that only answers, in the same runtime: what workerd itself costs on this machine, so
// the passthrough's own share of the difference can be read off.
const FLOOR_SCRIPT = `export default { fetch() { return new Response('{"ok":true,"items":[1,2,3]}', { headers: { 'content-type': 'application/json' } }); } };`;

// The upstream runs in its own process so the load generator does not share its event loop.
const UPSTREAM_SOURCE = `require('node:http').createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"ok":true,"items":[1,2,3]}');
}).listen(${UPSTREAM_PORT}, '127.0.0.1');`;

const load = (url: string, duration = SECONDS) =>
  autocannon({ url, connections: CONNECTIONS, duration, headers: { authorization: 'Bearer bench' } });

/**
 * The passthrough's cost: the same small JSON request straight to a local upstream and through
 * the Worker in workerd, at a fixed concurrency, compared in the same run.
 */
export const benchPassthrough = async (): Promise<BenchRow[]> => {
  const upstream = spawn(process.execPath, ['-e', UPSTREAM_SOURCE], { stdio: 'ignore' });
  const stateDir = mkdtempSync(path.join(tmpdir(), 'bench-passthrough-'));
  const app = await serveBuilt({ port: APP_PORT, stateDir, upstream: `http://127.0.0.1:${UPSTREAM_PORT}`, quiet: true, pages: false });
  const { compatibility_date: compatibilityDate } = JSON.parse(readFileSync(BUILT_CONFIG, 'utf8')) as { compatibility_date: string };
  const floorWorker = new Miniflare({ modules: true, script: FLOOR_SCRIPT, compatibilityDate, host: '127.0.0.1', port: FLOOR_PORT, logRequests: false });
  try {
    await floorWorker.ready;
    const direct = `http://127.0.0.1:${UPSTREAM_PORT}/v1/ping`;
    const through = `http://127.0.0.1:${APP_PORT}/api/v1/ping`;
    const onlyAnswers = `http://127.0.0.1:${FLOOR_PORT}/`;
    await waitUntilUp(direct);
    await waitUntilUp(through);
    await load(direct, 2);
    await load(through, 2);
    await load(onlyAnswers, 2);
    const a = await load(direct);
    const b = await load(through);
    const floor = await load(onlyAnswers);
    const p50Added = b.latency.p50 - a.latency.p50;
    const p99Added = b.latency.p99 - a.latency.p99;
    const ratio = b.requests.average / a.requests.average;
    const errors = b.errors + b.non2xx + a.errors + a.non2xx;
    return [
      {
        figure: 'passthrough p50 added latency',
        measured: `${p50Added.toFixed(2)} ms (${a.latency.p50} → ${b.latency.p50} ms)`,
        budget: '≤ 1 ms',
        pass: p50Added <= 1 && errors === 0,
        value: p50Added,
        detail: `${CONNECTIONS} connections, ${SECONDS} s each, ${errors} errors`,
      },
      {
        figure: 'passthrough p99 added latency',
        measured: `${p99Added.toFixed(2)} ms (${a.latency.p99} → ${b.latency.p99} ms)`,
        budget: 'reported',
        pass: true,
        value: p99Added,
      },
      {
        figure: 'passthrough throughput vs direct',
        measured: `${(ratio * 100).toFixed(0)}% (${Math.round(b.requests.average)} / ${Math.round(a.requests.average)} req/s)`,
        budget: '≥ 50%',
        pass: ratio >= 0.5,
        value: ratio,
      },
      {
        figure: 'workerd floor: a Worker that only answers, vs direct',
        measured: `${((floor.requests.average / a.requests.average) * 100).toFixed(0)}% (${Math.round(floor.requests.average)} req/s, p50 ${floor.latency.p50} ms)`,
        budget: 'reported',
        pass: true,
        value: floor.requests.average / a.requests.average,
        detail: 'no passthrough at all: the runtime alone on this machine',
      },
    ];
  } finally {
    await floorWorker.dispose();
    await app.dispose();
    upstream.kill('SIGTERM');
    rmSync(stateDir, { recursive: true, force: true });
  }
};
