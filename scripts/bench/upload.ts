import { rmSync } from 'node:fs';
import { withLocalEnv } from '../local-env';
import { bin, run } from '../run';
import { seed } from '../seed';
import { serveBuilt } from '../serve';
import { peaksDuring } from './backup';
import { connectToWorker } from './inspector';
import { adminToken } from './provider';
import type { BenchRow } from './stats';

const STATE_DIR = 'bench/.upload-state';
const PORT = 9721;
const INSPECTOR_PORT = 9722;
const BASE = `http://127.0.0.1:${PORT}`;
const MIB = 1024 * 1024;
const FILE_BYTES = 10 * MIB;
const HEAP_BUDGET_MIB = 16;
const MIN_READINGS = 5;

const CHUNK = 64 * 1024;

/**
 * Sends the file as a browser on a fast link would, a chunk at a time, so the upload lasts long
 * enough for the heap to be read many times while it runs. No Content-Length: the Worker cannot
 * know the size ahead, its hardest case.
 */
const uploadFile = async (token: string, ticketId: number, bytes: number) => {
  const boundary = `bench${Date.now()}`;
  const encoder = new TextEncoder();
  const head = encoder.encode(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="bench.bin"\r\ncontent-type: application/octet-stream\r\n\r\n`);
  const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
  let sent = -1;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent === -1) {
        sent = 0;
        return controller.enqueue(head);
      }
      if (sent >= bytes) {
        controller.enqueue(tail);
        return controller.close();
      }
      // Random bytes: nothing along the way can shrink them.
      const chunk = crypto.getRandomValues(new Uint8Array(Math.min(CHUNK, bytes - sent)));
      sent += chunk.length;
      await new Promise((resolve) => setTimeout(resolve, 2));
      controller.enqueue(chunk);
    },
  });
  const res = await fetch(`${BASE}/api/v1/tickets/${ticketId}/attachments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
    duplex: 'half',
  } as RequestInit);
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
};

/**
 * A 10 MiB upload through the built Worker (passthrough, provider, R2), sampling the Worker's
 * JavaScript heap through the inspector while it runs: a stream passed on in 5 MiB parts keeps it
 * far below the file's size, a body read whole would not.
 */
export const benchUpload = async (): Promise<BenchRow> => {
  rmSync(STATE_DIR, { recursive: true, force: true });
  process.env.LOCAL_STATE_DIR = STATE_DIR;
  await run(bin('wrangler'), ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', STATE_DIR]);
  await withLocalEnv((env) => seed(env));
  const mf = await serveBuilt({ port: PORT, stateDir: STATE_DIR, quiet: true, pages: false, inspectorPort: INSPECTOR_PORT });
  const worker = await connectToWorker(INSPECTOR_PORT);
  try {
    const token = await adminToken(BASE);
    const ticket = await fetch(`${BASE}/api/v1/tickets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Upload bench' }),
    });
    const { id } = (await ticket.json()) as { id: number };
    // A small upload first, so the code's first run is not counted as growth.
    await uploadFile(token, id, 1024);
    const { growth } = await peaksDuring({ heap: () => worker.heapUsed() }, 20, uploadFile(token, id, FILE_BYTES));
    const mib = growth.heap.bytes / MIB;
    return {
      figure: 'upload of a 10 MiB file through the Worker: heap growth',
      measured: growth.heap.samples < MIN_READINGS ? `not measured (${growth.heap.samples} readings)` : `${mib.toFixed(1)} MiB (${growth.heap.samples} readings)`,
      budget: `≤ ${HEAP_BUDGET_MIB} MiB`,
      pass: growth.heap.samples >= MIN_READINGS && mib <= HEAP_BUDGET_MIB,
      value: growth.heap.bytes,
    };
  } finally {
    worker.close();
    await mf.dispose();
  }
};
