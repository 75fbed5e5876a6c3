import http from 'node:http';
import { expect, it } from 'vitest';
import { baseUrl } from './fixtures';

// `npm start` serves through a front that does what Cloudflare's edge does (scripts/edge-front.ts).
// The Worker refuses a body over 10 MiB before reading it, and workerd then resets the connection
// on the unread bytes; the front still has to pass the refusal on, not a 502 of its own.
const TWELVE_MB = 12 * 1024 * 1024;

const post = (length: 'declared' | 'chunked') =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const url = new URL('/api/v1/auth/login', baseUrl());
    const headers: http.OutgoingHttpHeaders = { 'content-type': 'application/json' };
    if (length === 'declared') headers['content-length'] = TWELVE_MB;
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    // A JSON string 12 MB long, sent in 64 KiB pieces as a browser would stream it.
    const body = Buffer.alloc(TWELVE_MB, 0x61);
    body.write('{"u":"');
    body.write('"}', TWELVE_MB - 2);
    let sent = 0;
    const write = () => {
      while (sent < TWELVE_MB) {
        const piece = body.subarray(sent, sent + 64 * 1024);
        sent += piece.length;
        if (!req.write(piece)) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });

it.each(['declared', 'chunked'] as const)("passes on the Worker's 413 to a 12 MB body with its length %s", async (length) => {
  for (let attempt = 0; attempt < 3; attempt++) {
    const { status, body } = await post(length);
    expect(status).toBe(413);
    expect(JSON.parse(body)).toEqual({ message: 'Request body is larger than 10 MiB' });
  }
  // The front keeps serving afterwards.
  expect((await fetch(new URL('/healthz', baseUrl()))).status).toBe(200);
});

it("runs the Worker's minute trigger from Miniflare's local route, which the asset router alone answered with 500", async () => {
  const res = await fetch(new URL('/cdn-cgi/handler/scheduled', baseUrl()));
  expect({ status: res.status, body: await res.text() }).toEqual({ status: 200, body: 'ok' });
});
