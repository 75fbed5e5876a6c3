import { rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { withLocalEnv } from '../local-env';
import { bin, run } from '../run';
import { DEMO_ADMIN_EMAIL, demoAdminPassword, seed } from '../seed';
import { serveBuilt, waitUntilUp } from '../serve';
import { percentile, type BenchRow } from './stats';

// Webhook delivery (docs/api.md#webhooks) on a fresh demo database served as `npm start` serves it,
// its queue run by Miniflare, to a receiver on this machine. WEBHOOK_ALLOW_LOOPBACK lets the hook
// point here; WEBHOOK_RETRY_DIVISOR (docs/operations.md#webhooks) makes a day of retries minutes.
const STATE_DIR = 'bench/.webhooks-state';
const PORT = 9731;
const BASE = `http://127.0.0.1:${PORT}`;
const LATENCY_EVENTS = 40;
const BURST = 1_000;
const OUTAGE_MS = 60_000;
const RETRY_DIVISOR = '600';
const DEADLINE_MS = 6 * 60_000;

const call = async <T>(token: string | null, route: string, init: { method?: string; body?: unknown } = {}) => {
  const res = await fetch(`${BASE}/api/v1/${route}`, {
    method: init.method ?? 'GET',
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(init.body ? { 'content-type': 'application/json' } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${route}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? null : await res.json()) as T;
};

const bodyOf = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => resolve(text));
  });

interface Receiver {
  url: string;
  /** Arrival time of each webhook-id's first successful receipt, and how often each came. */
  arrived: Map<string, number>;
  accepted: Map<string, number>;
  failing: boolean;
  server: Server;
}

const listen = async (): Promise<Receiver> => {
  const receiver = { arrived: new Map<string, number>(), accepted: new Map<string, number>(), failing: false } as Receiver;
  receiver.server = createServer((req, res) => {
    void bodyOf(req).then(() => {
      const id = String(req.headers['webhook-id']);
      if (receiver.failing) {
        res.writeHead(503).end();
        return;
      }
      receiver.accepted.set(id, (receiver.accepted.get(id) ?? 0) + 1);
      if (!receiver.arrived.has(id)) receiver.arrived.set(id, Date.now());
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/hook`;
  return receiver;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const waitFor = async (done: () => boolean, deadline: number) => {
  while (!done() && Date.now() < deadline) await sleep(100);
  return done();
};

export const benchWebhooks = async (): Promise<BenchRow[]> => {
  rmSync(STATE_DIR, { recursive: true, force: true });
  process.env.LOCAL_STATE_DIR = STATE_DIR;
  process.env.WEBHOOK_ALLOW_LOOPBACK = 'true';
  process.env.WEBHOOK_RETRY_DIVISOR = RETRY_DIVISOR;
  await run(bin('wrangler'), ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', STATE_DIR]);
  await withLocalEnv((env) => seed(env));
  const receiver = await listen();
  const app = await serveBuilt({ port: PORT, stateDir: STATE_DIR, quiet: true });
  try {
    await waitUntilUp(`${BASE}/login/`);
    const { token } = await call<{ token: string }>(null, 'auth/login', { method: 'POST', body: { username: DEMO_ADMIN_EMAIL, password: demoAdminPassword(), audience: 'staff-app' } });
    const hook = await call<{ id: number }>(token, 'webhooks', { method: 'POST', body: { url: receiver.url, events: ['ticket.created'] } });

    // Commit → delivery: the time from the API's answer to the receiver's first receipt.
    const latencies: number[] = [];
    for (let i = 0; i < LATENCY_EVENTS; i++) {
      const before = new Set(receiver.arrived.keys());
      await call(token, 'tickets', { method: 'POST', body: { title: `Webhook latency ${i}` } });
      const committed = Date.now();
      await waitFor(() => receiver.arrived.size > before.size, Date.now() + 30_000);
      const id = [...receiver.arrived.keys()].find((key) => !before.has(key));
      if (i % 10 === 0) console.log(`  latency: ${i + 1} of ${LATENCY_EVENTS}`);
      if (id) latencies.push((receiver.arrived.get(id) ?? committed) - committed);
    }
    const p95 = percentile(latencies, 95);

    // A burst while the receiver answers 503 for a minute: every event must arrive, once.
    const start = receiver.arrived.size;
    receiver.failing = true;
    const outage = new Promise<void>((resolve) =>
      setTimeout(() => {
        receiver.failing = false;
        resolve();
      }, OUTAGE_MS),
    );
    for (let i = 0; i < BURST; i += 10) {
      await Promise.all(Array.from({ length: 10 }, (_, j) => call(token, 'tickets', { method: 'POST', body: { title: `Webhook burst ${i + j}` } })));
      if (i % 100 === 0) console.log(`  burst: ${i + 10} events written, ${receiver.arrived.size - start} delivered`);
    }
    await outage;
    // Turned off only by 20 deliveries failed for good: a minute's outage must leave it on.
    const state = await call<{ active: boolean }>(token, `webhooks/${hook.id}`);
    if (!state.active) throw new Error('the hook was turned off by a one-minute outage');
    await waitFor(() => receiver.arrived.size - start >= BURST, Date.now() + DEADLINE_MS);
    await sleep(2_000);
    const received = receiver.arrived.size - start;
    const repeats = [...receiver.accepted.values()].filter((count) => count > 1).length;
    return [
      {
        figure: 'webhook commit → delivery p95',
        measured: `${p95} ms (${latencies.length} events)`,
        budget: '≤ 2000 ms',
        pass: latencies.length === LATENCY_EVENTS && p95 <= 2_000,
        value: p95,
      },
      {
        figure: `webhook burst of ${BURST} through a 1-minute outage`,
        measured: `${received} delivered, ${repeats} accepted twice`,
        budget: `${BURST} delivered, 0 twice`,
        pass: received === BURST && repeats === 0,
        value: received,
      },
    ];
  } finally {
    await app.dispose();
    receiver.server.close();
  }
};
